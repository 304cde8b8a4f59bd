// A one-off timer armed once per row read from a shared store: `const { rows } = await db.query('SELECT
// … FROM reminders'); for (const row of rows) setTimeout(() => send(row), row.dueAt - Date.now())`.
// Not a loop of its own, yet every replica reads the same rows at boot and arms the same timers, so
// each due reminder fires once per replica: scheduled work like any other.
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { scopeVariable } from '../ast/scope-variable.js';
import { memberPropertyName } from '../ast/property-names.js';
import { unwrapExpression } from '../ast/unwrapped-expression.js';
import { isExternalReceiver } from './external-effects.js';
import { isReadCall } from './host-local-work.js';
import { isFunctionLike } from './work-function.js';
import { descendants } from '../sql/descendants.js';
import { callsModelClass } from './work-intent.js';
import { isProjectModelBinding } from './project-model-binding.js';

/** Array methods whose callback runs once per element. */
const EACH_METHODS: readonly string[] = ['forEach', 'map', 'flatMap'];

/** `await db.query('SELECT …')`, `await prisma.reminder.findMany(…)`, `await Reminder.find({})`: a read from a shared store. */
function isStoreRead(sourceCode: SourceCode, node: TSESTree.Node | null | undefined): boolean {
  // `(await db.query(…)).rows`: the rows of the result.
  const result = node?.type === 'MemberExpression' ? unwrapExpression(node.object) : node;
  const read = result?.type === 'AwaitExpression' ? unwrapExpression(result.argument) : undefined;
  if (read?.type !== 'CallExpression' || read.callee.type !== 'MemberExpression') return false;
  const method = memberPropertyName(read.callee);
  const receiver = read.callee.object;
  const store = isExternalReceiver(receiver) || callsModelClass(read) || isProjectModelBinding(sourceCode, receiver);
  return method !== undefined && isReadCall(read, method) && store;
}

/** `rows` from `const { rows } = await db.query(…)` or `const rows = await repo.find()`; `result.rows` of such a result. */
function holdsStoredRows(sourceCode: SourceCode, node: TSESTree.Node): boolean {
  const value = unwrapExpression(node);
  if (isStoreRead(sourceCode, value)) return true;
  const name =
    value.type === 'Identifier'
      ? value
      : value.type === 'MemberExpression' && value.object.type === 'Identifier'
        ? value.object
        : undefined;
  const def = name ? scopeVariable(sourceCode, name)?.defs[0] : undefined;
  return def?.type === 'Variable' && def.node.type === 'VariableDeclarator' && isStoreRead(sourceCode, def.node.init);
}

/** The expression whose elements `node` runs once each: the right of its `for…of`, the receiver of its `forEach`. */
function iteratedBy(node: TSESTree.Node): TSESTree.Node | undefined {
  for (let child = node, parent = node.parent; parent; child = parent, parent = parent.parent) {
    if (parent.type === 'ForOfStatement' && parent.body === child) return parent.right;
    if (isFunctionLike(parent)) {
      const call = parent.parent;
      if (call?.type !== 'CallExpression' || call.arguments[0] !== parent || call.callee.type !== 'MemberExpression') return undefined;
      return EACH_METHODS.includes(memberPropertyName(call.callee) ?? '') ? call.callee.object : undefined;
    }
  }
  return undefined;
}

/** Whether `node` sits in a function handed to `new …(…)` (`new CronJob(spec, async () => …)`): it runs when that object says. */
function inConstructedCallback(node: TSESTree.Node): boolean {
  for (let at = node.parent; at; at = at.parent)
    if (isFunctionLike(at) && at.parent?.type === 'NewExpression' && at.parent.arguments.some((argument) => argument === at)) return true;
  return false;
}

/**
 * Whether the one-off timer `timer` is armed once per row of a read from a shared store; not in a callback
 * handed to a constructor, whose object runs it (a job never started arms nothing).
 */
export function armedPerStoredRow(sourceCode: SourceCode, timer: TSESTree.Node): boolean {
  const rows = iteratedBy(timer);
  return rows !== undefined && holdsStoredRows(sourceCode, rows) && !inConstructedCallback(timer);
}

/** Callee names of the one-off timers a loop arms per row. */
const ONE_OFF_TIMERS: readonly string[] = ['setTimeout', 'setImmediate'];

/**
 * A loop's work that arms one timer per row it reads from a shared store (`const due = await
 * repo.getDueSoon(); for (const r of due) timeouts.set(r.id, setTimeout(() => fire(r), r.at - now))`):
 * every replica reads the same rows and fires each one, whatever the timer's work can be seen to do.
 */
export function armsTimerPerStoredRow(sourceCode: SourceCode, body: TSESTree.Node): boolean {
  for (const node of descendants(body, sourceCode.visitorKeys))
    if (
      node.type === 'CallExpression' &&
      node.callee.type === 'Identifier' &&
      ONE_OFF_TIMERS.includes(node.callee.name) &&
      isFunctionLike(node.arguments[0]) &&
      armedPerStoredRow(sourceCode, node)
    )
      return true;
  return false;
}
