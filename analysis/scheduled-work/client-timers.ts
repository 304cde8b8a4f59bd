// Timers an SDK client owns (src/knowledge/client-timers.ts): discord.js v12's
// `client.setInterval(fn, ms)`, `this.client.setTimeout(loop, ms)`. A call is one only on a receiver
// the file shows to be such a client, in a file that imports the library: a value made by
// `new Client(…)` (`new Discord.Client()`), a variable, parameter or field annotated with the
// client class (`constructor(readonly client: Client)`), or a receiver by the name a bot gives its
// client (`client`, `bot`, `this.client`, `discordClient`) — never any object with a `setInterval`.
// A bot's module handed the client by its loader imports nothing of the library: there a receiver by
// such a name is the client only when the file reads it as one (`client.channels.cache.get(id)`).
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { CLIENT_CACHE_READ, CLIENT_RECEIVER_NAMES, CLIENT_TIMER_LIBRARIES, CLIENT_TIMERS } from '../../src/knowledge/client-timers.js';
import { nodeAt } from '../ast/node-at.js';
import type { DetectContext } from '../detect-context.js';
import { classFieldValues, enclosingClass } from '../ast/class-fields.js';
import { memberPropertyName } from '../ast/property-names.js';
import { scopeVariable } from '../ast/scope-variable.js';
import { unwrapExpression } from '../ast/unwrapped-expression.js';
import { requiredSpecifier } from '../imports/module-bindings.js';
import { descendants } from '../sql/descendants.js';
import type { ScheduledWork } from './scheduled-work.js';
import { resolveWorkFunction } from './work-function.js';
import { nameWords } from '../ast/name-words.js';

/** The local names the file binds a client library to: its client classes, and the module as a whole. */
interface ClientBindings {
  classes: ReadonlySet<string>;
  namespaces: ReadonlySet<string>;
  /** Client class names of the libraries imported (for `Discord.Client`). */
  classNames: ReadonlySet<string>;
  /** In a file importing no library: the receivers (`client`, `this.client`) read through a manager's cache. */
  cacheReaders?: ReadonlySet<string>;
}

const CACHE_READS = new RegExp(CLIENT_CACHE_READ.source, 'g');

/** A file importing no client library whose `client` is read as one (`client.channels.cache.get(id)`): those receivers. */
function cacheReaderBindings(sourceCode: SourceCode): ClientBindings | undefined {
  if (!CLIENT_CACHE_READ.test(sourceCode.text)) return undefined;
  const cacheReaders = new Set<string>();
  for (const match of sourceCode.text.matchAll(CACHE_READS)) {
    const name = nodeAt(sourceCode, match.index);
    if (name?.type !== 'Identifier') continue;
    const parent = name.parent;
    const owned = parent?.type === 'MemberExpression' && parent.property === name && parent.object.type === 'ThisExpression';
    cacheReaders.add(sourceCode.getText(owned ? parent : name));
  }
  const none: ReadonlySet<string> = new Set();
  return cacheReaders.size === 0 ? undefined : { classes: none, namespaces: none, classNames: none, cacheReaders };
}

function clientBindings(program: TSESTree.Program): ClientBindings | undefined {
  const classes = new Set<string>();
  const namespaces = new Set<string>();
  const classNames = new Set<string>();
  const libraryOf = (specifier: string | undefined) => CLIENT_TIMER_LIBRARIES.find((l) => l.modules.includes(specifier ?? ''));
  for (const statement of program.body) {
    if (statement.type === 'ImportDeclaration') {
      const library = libraryOf(statement.source.value);
      if (!library) continue;
      library.classes.forEach((c) => classNames.add(c));
      for (const specifier of statement.specifiers) {
        if (specifier.type !== 'ImportSpecifier') namespaces.add(specifier.local.name);
        else if (library.classes.includes(specifier.imported.type === 'Identifier' ? specifier.imported.name : specifier.imported.value))
          classes.add(specifier.local.name);
      }
    }
    if (statement.type !== 'VariableDeclaration') continue;
    for (const declarator of statement.declarations) {
      const library = libraryOf(requiredSpecifier(declarator.init));
      if (!library) continue;
      library.classes.forEach((c) => classNames.add(c));
      if (declarator.id.type === 'Identifier') namespaces.add(declarator.id.name);
      if (declarator.id.type !== 'ObjectPattern') continue;
      for (const p of declarator.id.properties)
        if (p.type === 'Property' && p.key.type === 'Identifier' && library.classes.includes(p.key.name) && p.value.type === 'Identifier')
          classes.add(p.value.name);
    }
  }
  return classNames.size === 0 ? undefined : { classes, namespaces, classNames };
}

/** `Client`, `Discord.Client`: a reference to a client class (as a constructor or a type name). */
function namesClientClass(bindings: ClientBindings, node: TSESTree.Node): boolean {
  if (node.type === 'Identifier') return bindings.classes.has(node.name);
  const [left, right] =
    node.type === 'MemberExpression'
      ? [node.object, memberPropertyName(node)]
      : node.type === 'TSQualifiedName'
        ? [node.left, node.right.name]
        : [];
  return left?.type === 'Identifier' && bindings.namespaces.has(left.name) && bindings.classNames.has(right ?? '');
}

/** `new Client(…)`, or a `: Client` annotation. */
function isClientValue(bindings: ClientBindings, value: TSESTree.Node | null | undefined): boolean {
  if (!value) return false;
  if (value.type === 'TSTypeAnnotation') return isClientValue(bindings, value.typeAnnotation);
  if (value.type === 'TSTypeReference') return namesClientClass(bindings, value.typeName);
  const made = unwrapExpression(value);
  return made.type === 'NewExpression' && namesClientClass(bindings, unwrapExpression(made.callee));
}

/** A name a bot gives its client: `client`, `bot`, `discordClient`. */
function isClientName(name: string | undefined): boolean {
  const words = name === undefined ? [] : nameWords(name);
  return CLIENT_RECEIVER_NAMES.includes(words[words.length - 1] ?? '');
}

/** Whether the receiver of a timer call is one of the library's clients. */
function isClientReceiver(sourceCode: SourceCode, bindings: ClientBindings, receiver: TSESTree.Node): boolean {
  const node = unwrapExpression(receiver);
  if (bindings.cacheReaders) return bindings.cacheReaders.has(sourceCode.getText(node));
  if (node.type === 'Identifier') {
    if (isClientName(node.name)) return true;
    const def = scopeVariable(sourceCode, node)?.defs[0];
    const declared = def?.name as TSESTree.Identifier | undefined;
    if (isClientValue(bindings, declared?.typeAnnotation)) return true;
    return def?.node.type === 'VariableDeclarator' && isClientValue(bindings, def.node.init);
  }
  if (node.type !== 'MemberExpression') return false;
  if (isClientName(memberPropertyName(node))) return true;
  const owner = node.object.type === 'ThisExpression' ? enclosingClass(node) : undefined;
  const field = memberPropertyName(node);
  if (!owner || field === undefined) return false;
  return (classFieldValues(owner, sourceCode.visitorKeys).get(field) ?? []).some((value) => isClientValue(bindings, value));
}

/** The modules whose clients own timers: a file importing none of them has no client timer. */
export const CLIENT_TIMER_MODULES: readonly string[] = CLIENT_TIMER_LIBRARIES.flatMap((library) => library.modules);

/** Every client-owned timer of the file, as scheduled work (a bare timer; `setTimeout` as a loop). */
export function clientTimerWorks(context: DetectContext): ScheduledWork[] {
  const sourceCode = context.sourceCode;
  const bindings = clientBindings(sourceCode.ast) ?? cacheReaderBindings(sourceCode);
  if (!bindings) return [];
  const out: ScheduledWork[] = [];
  for (const node of descendants(sourceCode.ast, sourceCode.visitorKeys)) {
    if (node.type !== 'CallExpression' || node.callee.type !== 'MemberExpression') continue;
    const entry = CLIENT_TIMERS[memberPropertyName(node.callee) ?? ''];
    const [work, period] = node.arguments;
    if (!entry || !work || work.type === 'SpreadElement' || !isClientReceiver(sourceCode, bindings, node.callee.object)) continue;
    const resolved = resolveWorkFunction(sourceCode, work);
    out.push({
      entry,
      schedulerNode: node,
      expression: work,
      workIndex: 0,
      ...(resolved ? { resolved } : {}),
      name: resolved?.name,
      period: period && period.type !== 'SpreadElement' ? { kind: 'interval', text: sourceCode.getText(period) } : undefined,
      coordinatedByOption: false,
    });
  }
  return out;
}
