// A read of state-filtered rows followed by an update of one of them is not always a worker
// claiming pending work. These are the shapes the rule follows to tell the others apart:
//
// - find-or-create: one row looked up, and the same table written with a create when it is
//   absent (an upsert written by hand, often retried on a unique-constraint conflict);
// - a row the caller owns: the read is scoped to the acting user (`where: { userId }` from the
//   function's parameters), so what it finds is that user's own, not a shared queue;
// - a queue job's handler acting on the record its job names (`job.data.recordId`): the queue
//   delivers each job to one handler.
// - a prune: one delete of the rows worked out in memory, nothing else done (prune.ts);
// - a loop that only sets each row's state to constants and saves it, nothing else done (flip-only.ts);
// - a handler of the process's end (`process.on('SIGTERM', …)`) settling this process's work;
// - one record looked up to be used, no state moved (keyed-lookups.ts);
// - a state moved inside a MongoDB transaction, which aborts the second writer (mongo-transactions.ts).
// Work already held under a lock or a claim is `held-under-guard.ts`.
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import { chainRoot } from '../../analysis/ast/chain-root.js';
import type { TSESTree } from '@typescript-eslint/utils';
import type { DetectContext } from '../../analysis/detect-context.js';
import { descendants } from '../../analysis/sql/descendants.js';
import { isFunctionNode, type FunctionNode } from '../../analysis/sql/enclosing-function.js';
import { isOutermostCall, methodChain, receiverName, unwrap } from '../../analysis/sql/method-chain.js';
import { absentWhen } from '../../analysis/ast/absent-when.js';
import { sqlSentBy } from '../../analysis/sql/sql-text.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { moduleSpecifiers } from '../../analysis/imports/imported-references.js';
import { QUEUES } from '../../src/knowledge/queues.js';
import { CREATE_METHODS, FILTER_METHOD, parseSql, READ_METHODS } from '../../src/knowledge/sql.js';
import { identifierName, isPunctuation, isWord, type SqlToken } from '../../src/knowledge/sql-tokens.js';
import { type ClaimVocabulary, type PendingRead } from './claim-shapes.js';
import { mentionsAny, resultNames } from './row-names.js';
import { filterPairs } from './filter-pairs.js';
import { looksUpOneToUse } from './keyed-lookups.js';
import { inMongoTransaction } from './mongo-transactions.js';
import { claimedBefore, guardLookup, heldUnderGuard } from './held-under-guard.js';
import { reCheckedUnderLock } from './locked-re-read.js';
import { namedByRequest } from './named-by-request.js';
import { inShutdownHandler } from './shutdown-hook.js';
import { prunesOnly } from './prune.js';
import { flipsOnly } from './flip-only.js';
import { decoratorName } from '../../analysis/ast/decorator-name.js';

type Node = TSESTree.Node;

/**
 * Filter keys that name the acting user (a row the caller owns), also with a qualifier before
 * the user or account (`emailAccountId`, `ownerUserId`, `stripe_account_id`), or a reference
 * named for the user itself (`{ user: userId }`, a MongoDB schema's owner field).
 */
const OWNER_KEY =
  /^(?:uid|user|owner|(?:\w+_)?user_?u?id|owner_?id|customer_?id|(?:\w+_)?account_?id|member_?id|author_?id|created_?by|requester_?id)$/i;
const isOwnerKey = (key: string): boolean => OWNER_KEY.test(key.replace(/([a-z0-9])([A-Z])/g, '$1_$2'));

/**
 * The parameter a value comes from: `user.id` with `user` a parameter, or `scheduleId` declared
 * from one (`const { scheduleId } = job.data`). The function and the parameter's position.
 */
function parameterOf(value: Node, context: DetectContext, hops = 1): { fn: FunctionNode; index: number } | undefined {
  const identifier = chainRoot(value, { unwrap: 'await' });
  if (!identifier) return undefined;
  const def = scopeVariable(context.sourceCode, identifier)?.defs[0];
  if (!def) return undefined;
  const node = def.node as Node;
  if (def.type === 'Parameter' && isFunctionNode(node)) {
    const name = def.name as Node;
    const index = node.params.findIndex((p) => p.range[0] <= name.range[0] && name.range[1] <= p.range[1]);
    return index === -1 ? undefined : { fn: node, index };
  }
  if (def.type === 'Variable' && hops > 0 && node.type === 'VariableDeclarator' && node.init)
    return parameterOf(node.init, context, hops - 1);
  return undefined;
}

const contains = (outer: Node, inner: Node): boolean => outer.range[0] <= inner.range[0] && inner.range[1] <= outer.range[1];

/** The read is scoped to the acting user: an owner key filtered on a value the function was given. */
export function scopedToCaller(read: PendingRead, context: DetectContext): boolean {
  return filterPairs(read).some(({ key, value }) => {
    if (!isOwnerKey(key)) return false;
    const parameter = parameterOf(value, context);
    return parameter !== undefined && contains(parameter.fn, read.node);
  });
}

/** Methods that delete the instance they are called on (`collective.destroy({ transaction })`, `entity.remove()`). */
const INSTANCE_DELETES: ReadonlySet<string> = new Set(['destroy', 'delete', 'remove', 'softDelete', 'softRemove']);

/**
 * The rows of an entity being deleted: the read is scoped to a parameter's key
 * (`where: { CollectiveId: collective.id }`) and the function that was given the entity deletes it
 * (`await collective.destroy({ transaction })`). Its children are removed or detached with it, a
 * cascade written by hand, not pending work a worker picks.
 */
export function scopedToDeletedEntity(read: PendingRead, context: DetectContext): boolean {
  return filterPairs(read).some(({ value }) => {
    const v = unwrap(value);
    if (v.type !== 'MemberExpression' || memberPropertyName(v) !== 'id') return false;
    const entity = chainRoot(v, { unwrap: 'await' });
    const parameter = parameterOf(v, context, 0);
    if (!entity || !parameter || !contains(parameter.fn, read.node)) return false;
    for (const node of descendants(parameter.fn.body, context.sourceCode.visitorKeys)) {
      if (node.type !== 'CallExpression' || node.callee.type !== 'MemberExpression' || node.range[0] < read.node.range[1]) continue;
      const object = unwrap(node.callee.object);
      if (object.type === 'Identifier' && object.name === entity.name && INSTANCE_DELETES.has(memberPropertyName(node.callee) ?? ''))
        return true;
    }
    return false;
  });
}

const handlerKnowledge = (program: TSESTree.Program) => {
  const modules = moduleSpecifiers(program);
  return QUEUES.filter((q) => q.handlers && q.modules.some((m) => modules.has(m))).flatMap((q) => (q.handlers ? [q.handlers] : []));
};

/** Whether `fn` is the handler a job queue (imported by the file) hands its jobs to. */
function isJobHandler(fn: FunctionNode, context: DetectContext): boolean {
  const known = handlerKnowledge(context.sourceCode.ast);
  if (known.length === 0) return false;
  const parent = fn.parent;
  if (parent?.type === 'MethodDefinition') {
    const name = parent.key.type === 'Identifier' ? parent.key.name : undefined;
    const decorators = parent.decorators.map(decoratorName);
    const owner = parent.parent.parent;
    const classDecorators =
      owner.type === 'ClassDeclaration' || owner.type === 'ClassExpression' ? owner.decorators.map(decoratorName) : [];
    const base =
      (owner.type === 'ClassDeclaration' || owner.type === 'ClassExpression') && owner.superClass?.type === 'Identifier'
        ? owner.superClass.name
        : undefined;
    return known.some(
      (h) =>
        decorators.some((d) => d !== undefined && h.methodDecorators.includes(d)) ||
        (name !== undefined &&
          h.handlerMethods.includes(name) &&
          (classDecorators.some((d) => d !== undefined && h.classDecorators.includes(d)) ||
            (base !== undefined && h.baseClasses.includes(base)))),
    );
  }
  if (parent?.type === 'NewExpression' && parent.callee.type === 'Identifier') {
    const name = parent.callee.name;
    return parent.arguments.some((a) => a === fn) && known.some((h) => h.workerClasses.includes(name));
  }
  if (parent?.type === 'CallExpression' && parent.arguments.some((a) => a === fn)) {
    const method = memberPropertyName(parent.callee);
    return method !== undefined && known.some((h) => h.registerMethods.includes(method));
  }
  return false;
}

/** The read finds the record its queue job names: filtered on a value from the handler's job argument. */
export function scopedToJob(read: PendingRead, context: DetectContext): boolean {
  return filterPairs(read).some(({ value }) => {
    const parameter = parameterOf(value, context);
    return parameter !== undefined && parameter.index === 0 && contains(parameter.fn, read.node) && isJobHandler(parameter.fn, context);
  });
}

/** The table an INSERT writes (`INSERT INTO public.labels (name) …` → `labels`), lower-cased. */
function insertTarget(tokens: readonly SqlToken[]): string | undefined {
  let i = tokens.findIndex((t) => isWord(t, 'into'));
  if (i === -1) return undefined;
  let name = identifierName(tokens[++i]);
  while (name !== undefined && isPunctuation(tokens[i + 1], '.')) name = identifierName(tokens[(i += 2)]);
  return name?.toLowerCase();
}

/** A statement that always leaves: `return`, `throw`, or a block ending with one. */
function exits(statement: Node): boolean {
  if (statement.type === 'ReturnStatement' || statement.type === 'ThrowStatement') return true;
  if (statement.type === 'BlockStatement') {
    const last = statement.body[statement.body.length - 1];
    return last !== undefined && exits(last);
  }
  return false;
}

/**
 * Whether `call` runs only when the read found nothing: on the absent side of an `if`, `?:`, `&&`,
 * `||` or `??` that tests the read's result (`if (!existing) create(…)`, `found ?? create(…)`,
 * `else create(…)`), or after an `if (existing) return …;`.
 */
function onAbsentBranch(call: Node, read: PendingRead, scope: Node, context: DetectContext): boolean {
  const names = resultNames(read.node);
  const decides = (test: Node): boolean => contains(test, read.node) || mentionsAny(test, names, context.sourceCode.visitorKeys);
  for (let node: Node | undefined = call; node && node !== scope; node = node.parent) {
    const parent: Node | undefined = node.parent;
    if (parent?.type === 'IfStatement' || parent?.type === 'ConditionalExpression') {
      if (parent.test === node) continue;
      const absent = absentWhen(parent.test, decides);
      if (absent !== undefined) return parent.consequent === node ? absent : !absent;
    }
    if (parent?.type === 'LogicalExpression' && parent.right === node && decides(parent.left))
      return parent.operator === '&&' ? absentWhen(parent.left, decides) === true : true;
    if (parent?.type === 'BlockStatement' || parent?.type === 'Program') {
      const before = (parent.body as Node[]).slice(0, (parent.body as Node[]).indexOf(node));
      const leavesWhenFound = before.some(
        (s) => s.type === 'IfStatement' && !s.alternate && exits(s.consequent) && absentWhen(s.test, decides) === false,
      );
      if (leavesWhenFound) return true;
    }
  }
  return false;
}

/** Find-or-create: the function adds a row to the table it read one row from, on a branch decided by what it found. */
export function createsTheRowWhenAbsent(read: PendingRead, scope: Node, context: DetectContext): boolean {
  return createWhenAbsent(read, scope, context) !== undefined;
}

/** The create (or insert) of a row in the table `read` looked in, made on the branch where it found nothing. */
export function createWhenAbsent(
  read: PendingRead,
  scope: Node,
  context: DetectContext,
): TSESTree.CallExpression | TSESTree.TaggedTemplateExpression | undefined {
  const table = read.table?.toLowerCase();
  // A model's own static method (`this.findOne(…)`, then `this.create(…)`): the same table, unnamed.
  const onThis = table === undefined && read.node.type === 'CallExpression' && calledOnThis(read.node, READ_OR_FILTER);
  if (table === undefined && !onThis) return undefined;
  for (const node of descendants(scope, context.sourceCode.visitorKeys)) {
    if (node.type !== 'CallExpression' && node.type !== 'TaggedTemplateExpression') continue;
    const creates =
      table === undefined ? node.type === 'CallExpression' && calledOnThis(node, CREATE_METHODS) : createsIn(node, table, context);
    if (creates && onAbsentBranch(node, read, scope, context)) return node;
  }
  return undefined;
}

const READ_OR_FILTER = { has: (name: string): boolean => READ_METHODS.has(name) || FILTER_METHOD.test(name) };

/** A chain whose link named in `methods` is called on `this` (`this.findOne(…)`, `this.create(…)`). */
function calledOnThis(call: TSESTree.CallExpression, methods: { has(name: string): boolean }): boolean {
  return (
    isOutermostCall(call) &&
    methodChain(call).some((l) => l.name !== undefined && methods.has(l.name) && l.object?.type === 'ThisExpression')
  );
}

/** Whether a call adds a row to `table` (lower-cased): a create / insert / upsert chain, or SQL `INSERT INTO` it. */
function createsIn(node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression, table: string, context: DetectContext): boolean {
  if (node.type === 'CallExpression' && isOutermostCall(node)) {
    const chain = methodChain(node);
    if (chain.some((l) => l.name !== undefined && CREATE_METHODS.has(l.name))) {
      const names = chain.flatMap((l) => {
        const first = l.call.arguments[0];
        return [receiverName(l.object), first?.type === 'Literal' && typeof first.value === 'string' ? first.value : undefined];
      });
      if (names.some((n) => n?.toLowerCase() === table)) return true;
    }
  }
  const use = sqlSentBy(node, context.sourceCode, /insert/i);
  if (use === 'absent' || !use) return false;
  const inserts = parseSql(use.sql.text)?.statements.filter((s) => s.kind === 'insert') ?? [];
  return inserts.some((s) => insertTarget(s.tokens) === table);
}

/** Where the rows a read returns are acted on (the rule's work region). */
export interface ActedOn {
  region: Node;
  /** Names the acted-on row is bound to inside the region. */
  names: string[];
  loop: Node | undefined;
  /** Claims count after this offset. */
  after: number;
  /** Updates count after this offset (the loop's end, for a batch marked after it), when not `after`. */
  updatesFrom?: number;
  /** For a batch marked after the loop: the names that carry its rows out (`marked-after.ts`), which the update must use. */
  marks?: string[];
}

/** The file's check: whether a read and the update of a row it returned are not a claim of pending work. */
export function notAClaimCheck(
  context: DetectContext,
  vocabulary: ClaimVocabulary,
): (read: PendingRead, region: ActedOn, scope: Node, update: Node) => boolean {
  const isGuard = guardLookup(context);
  const question = { context, vocabulary };
  const keys = context.sourceCode.visitorKeys;
  return (read, region, scope, update) => {
    if (region.loop === undefined && createsTheRowWhenAbsent(read, scope, context)) return true;
    if (scopedToCaller(read, context) || scopedToJob(read, context) || scopedToDeletedEntity(read, context)) return true;
    // A request handler acting on the rows its request names (named-by-request.ts).
    const call = update.type === 'CallExpression' || update.type === 'TaggedTemplateExpression' ? update : undefined;
    if (call && namedByRequest(read, call, context)) return true;
    // One record looked up to be used, no state moved (keyed-lookups.ts); a state moved in a MongoDB transaction (mongo-transactions.ts).
    if (call && (looksUpOneToUse(read, call, context, vocabulary) || inMongoTransaction(read.node, call, context))) return true;
    // Run once as this process ends (shutdown-hook.ts).
    if (inShutdownHandler(read.node)) return true;
    // One delete of rows worked out in memory, and nothing else done with them (prune.ts).
    if (call && prunesOnly(read, call, region.loop, scope, keys)) return true;
    // Each row's state set to constants and saved, nothing else done (flip-only.ts).
    if (call && flipsOnly(region, call)) return true;
    const mentionsRow = (call: Node): boolean => mentionsAny(call, region.names, keys);
    if (claimedBefore(region.region, region.after, update, mentionsRow, question, isGuard)) return true;
    if (reCheckedUnderLock(region, update, question, isGuard)) return true;
    return heldUnderGuard(read.node, question, isGuard);
  };
}
