// Which failure handling of a migrate entrypoint is about the migration run:
// - a catch clause counts when its `try` holds a call on the migration path: a migrator run, a
//   call named for a run, a call that sends schema DDL (`client.query('ALTER TABLE …')`), or a call
//   of a function of this file that makes one (`main` calling `runMigration`). A catch beside the
//   run — a helper's (`try { await access(dir); return true } catch { return false }`), or a
//   best-effort step in the same function (`try { await notify() } catch {}`) — handles its own
//   question;
// - a `.catch(…)` / `.then(ok, fail)` counts when the promise it handles comes from a call on the
//   path (`main().catch(log)`, `migrate(db).catch(log)`);
// - with no call on the path in view nothing counts: which handler is the run's cannot be told,
//   and a long data-copy script holds dozens of helpers that catch their own errors.
import type { TSESTree } from '@typescript-eslint/utils';
import { findVariable } from '@eslint-community/eslint-utils';
import type { DetectContext } from '../utils/create-rule.js';
import { calleeName } from '../../analysis/ast/callee-name.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { SCHEMA_DDL, mayNameMigrationRun, namesMigrationRunner } from '../../src/knowledge/migrators.js';
import { TIMER_LIFETIME } from '../../src/knowledge/schedulers.js';
import { migratorRuns } from '../migrations/self-locking.js';
import { exitsNonZero } from '../migrations/exit-paths.js';

type FunctionNode = TSESTree.FunctionDeclaration | TSESTree.FunctionExpression | TSESTree.ArrowFunctionExpression;

const isFunction = (node: TSESTree.Node): node is FunctionNode =>
  node.type === 'FunctionDeclaration' || node.type === 'FunctionExpression' || node.type === 'ArrowFunctionExpression';

/** The functions around a node, innermost first. */
function enclosingFunctions(node: TSESTree.Node): FunctionNode[] {
  const out: FunctionNode[] = [];
  for (let current = node.parent; current; current = current.parent) if (isFunction(current)) out.push(current);
  return out;
}

/** The function of this file a node is or names (`main`, `const run = async () => …`, an inline function). */
export function functionDefinedHere(node: TSESTree.Node, sourceCode: DetectContext['sourceCode']): FunctionNode | undefined {
  const value = unwrapExpression(node);
  if (value.type === 'FunctionExpression' || value.type === 'ArrowFunctionExpression') return value;
  if (value.type !== 'Identifier') return undefined;
  try {
    const variable = findVariable(sourceCode.getScope(value) as never, value) as { defs: Array<{ node: TSESTree.Node }> } | null;
    const def = variable?.defs[0]?.node;
    if (def?.type === 'FunctionDeclaration') return def;
    const init = def?.type === 'VariableDeclarator' && def.init ? unwrapExpression(def.init) : undefined;
    return init && isFunction(init) ? init : undefined;
  } catch {
    return undefined;
  }
}

/** A string or template argument that holds schema DDL (`'CREATE TABLE …'`, `` `ALTER TABLE ${t} …` ``). */
const isDdlText = (node: TSESTree.Node): boolean =>
  (node.type === 'Literal' && typeof node.value === 'string' && SCHEMA_DDL.test(node.value)) ||
  (node.type === 'TemplateLiteral' && node.quasis.some((quasi) => SCHEMA_DDL.test(quasi.value.cooked ?? quasi.value.raw)));

const contains = (outer: TSESTree.Node, inner: TSESTree.Node): boolean =>
  outer.range[0] <= inner.range[0] && inner.range[1] <= outer.range[1];

export interface MigrationPath {
  /** Whether any call on the migration path is in view. */
  known: boolean;
  /** Whether a catch clause handles failures of the migration run. */
  catches(clause: TSESTree.CatchClause): boolean;
  /** Whether `.catch(…)` / `.then(ok, fail)` handles a promise of the migration run. */
  handles(call: TSESTree.CallExpression): boolean;
}

/** The migration path of an entrypoint file (see above). */
export function migrationPath(
  context: DetectContext,
  program: TSESTree.Program,
  calls: readonly TSESTree.CallExpression[],
  strings: readonly string[],
): MigrationPath {
  const onPath = new Set<TSESTree.CallExpression>();
  for (const run of migratorRuns(context, program, calls, strings)) if (run.call) onPath.add(run.call);
  for (const call of calls) {
    const name = calleeName(call);
    if (name !== undefined && (namesMigrationRunner(name) || mayNameMigrationRun(name))) onPath.add(call);
    // A run told by its DDL: the call that sends it (`await client.query('ALTER TABLE …')`).
    else if (call.arguments.some(isDdlText)) onPath.add(call);
  }
  // Functions that hold a call on the path, and the calls of those functions (to a fixed point: a
  // file has few functions).
  const functions = new Set<FunctionNode>();
  for (let changed = true; changed;) {
    changed = false;
    for (const call of calls) {
      if (!onPath.has(call)) {
        const target = functionDefinedHere(call.callee, context.sourceCode);
        if (!target || !functions.has(target)) continue;
        onPath.add(call);
      }
      for (const fn of enclosingFunctions(call))
        if (!functions.has(fn)) {
          functions.add(fn);
          changed = true;
        }
    }
  }
  const pathCalls = [...onPath];
  return {
    known: pathCalls.length > 0,
    catches(clause) {
      const tryBlock = clause.parent.type === 'TryStatement' ? clause.parent.block : undefined;
      return tryBlock !== undefined && pathCalls.some((call) => contains(tryBlock, call));
    },
    handles(call) {
      for (let value = unwrapExpression(call.callee); ;) {
        if (value.type !== 'MemberExpression') return false;
        const object = unwrapExpression(value.object, { await: true });
        if (object.type !== 'CallExpression') return false;
        if (onPath.has(object)) return true;
        value = unwrapExpression(object.callee);
      }
    },
  };
}

const REJECTION_EVENTS: ReadonlySet<string> = new Set(['unhandledRejection', 'uncaughtException']);
const LISTEN_METHODS: ReadonlySet<string> = new Set(TIMER_LIFETIME.listenerMethods);

/**
 * Whether the file installs a `process.on('unhandledRejection' | 'uncaughtException', …)` handler
 * that neither exits non-zero nor rethrows. Since Node 15 an unhandled rejection ends the process
 * with code 1 (`--unhandled-rejections=throw`, the default) unless such a handler takes it over.
 */
export function swallowsUnhandledRejections(calls: readonly TSESTree.CallExpression[]): boolean {
  return calls.some((call) => {
    const callee = unwrapExpression(call.callee);
    if (callee.type !== 'MemberExpression' || !LISTEN_METHODS.has(memberPropertyName(callee) ?? '')) return false;
    const object = unwrapExpression(callee.object);
    const isProcess = (object.type === 'Identifier' && object.name === 'process') || memberPropertyName(object) === 'process';
    const [event, handler] = call.arguments;
    if (!isProcess || event?.type !== 'Literal' || !REJECTION_EVENTS.has(String(event.value)) || !handler) return false;
    const fn = unwrapExpression(handler);
    // A handler defined elsewhere is not known to swallow.
    return isFunction(fn) && !exitsNonZero(fn.body);
  });
}
