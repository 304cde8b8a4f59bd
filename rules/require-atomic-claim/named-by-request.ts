// A request acting on the row it names is not a worker picking pending work. An admin approving
// the one merchant a route names (`@Put(':id/approve')`, the read filtered by that id), or an
// operator's click that re-queues the failed items of the kind the request asks for (a tRPC
// mutation whose read is filtered by `input.status`), a controller's `(req, res)` clearing the cart
// of the patient its body names, a GraphQL mutation's resolver updating the entities its input
// lists: the function runs because a client asked, once per request, for what the request says;
// no timer or queue runs it on every replica.
//
// A claim by an actor stays a claim: when the update writes a value from the request besides its
// filter (`inviteeUid`, `claimedBy: user.id`), two clients are taking one shared row (a single-use
// invitation, a coupon), and the second overwrites the first. In a handler known only by its
// `(req, res)` parameters or a GraphQL resolver (no route names one row), a read filtered on a state
// whose update moves that state on (`status: 'unused'` read, `voucher.status = 'redeemed'` saved) is
// one too: two clients redeeming one voucher both pass the read.
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import type { TSESTree } from '@typescript-eslint/utils';
import type { DetectContext } from '../../analysis/detect-context.js';
import { isFunctionNode, type FunctionNode } from '../../analysis/sql/enclosing-function.js';
import { isOutermostCall, methodChain } from '../../analysis/sql/method-chain.js';
import { oneRequestHandlerAround, requestHandlerAround } from '../../analysis/request-handler-around.js';
import { descendants } from '../../analysis/sql/descendants.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { CRITERIA_FIRST_METHODS, FILTER_METHOD } from '../../src/knowledge/sql.js';
import { filterContexts, type DatabaseCall, type PendingRead } from './claim-shapes.js';
import { keyName } from './row-names.js';

type Node = TSESTree.Node;

const MAX_HOPS = 2;

type Keys = DetectContext['sourceCode']['visitorKeys'];

/** The identifiers under `node` that are values, not in a nested function; with `calleesOnly`, not in a call's arguments either. */
function valueIdentifiers(node: Node, keys: Keys, calleesOnly: boolean, out: TSESTree.Identifier[] = []): TSESTree.Identifier[] {
  if (isFunctionNode(node)) return out;
  if (node.type === 'Identifier') {
    const parent = node.parent;
    const property = parent?.type === 'MemberExpression' && parent.property === node && !parent.computed;
    const key = parent?.type === 'Property' && parent.key === node && !parent.computed && parent.value !== node;
    if (!property && !key) out.push(node);
    return out;
  }
  if (calleesOnly && node.type === 'CallExpression') return valueIdentifiers(node.callee, keys, calleesOnly, out);
  for (const key of keys[node.type] ?? []) {
    const child = (node as unknown as Record<string, unknown>)[key];
    for (const c of Array.isArray(child) ? child : [child])
      if (c && typeof c === 'object' && typeof (c as Node).type === 'string') valueIdentifiers(c as Node, keys, calleesOnly, out);
  }
  return out;
}

/**
 * Whether `node` holds a value of `handler`'s parameters: itself, or through up to two variables
 * declared from them (`const { id } = req.params`, `await request.json()`), not through what a
 * call given them returns (a row read by the request's id is the database's value).
 */
export function fromParameters(node: Node, handler: FunctionNode, context: DetectContext, hops = MAX_HOPS): boolean {
  for (const identifier of valueIdentifiers(node, context.sourceCode.visitorKeys, hops < MAX_HOPS)) {
    const def = scopeVariable(context.sourceCode, identifier)?.defs[0];
    if (!def) continue;
    if (def.type === 'Parameter' && def.node === handler) return true;
    const declarator = def.node as Node;
    if (def.type === 'Variable' && hops > 0 && declarator.type === 'VariableDeclarator' && declarator.init)
      if (fromParameters(declarator.init, handler, context, hops - 1)) return true;
  }
  return false;
}

/** The nodes of a read that filter its rows: builder filters and criteria, or the values sent with its SQL. */
export function readFilters(read: PendingRead): Node[] {
  const node = read.node;
  if (node.type === 'TaggedTemplateExpression') return node.quasi.expressions;
  if (read.kind === 'sql') return node.arguments.slice(1);
  return filterContexts(methodChain(node), CRITERIA_FIRST_METHODS).map((c) => c.node);
}

/** The values an update sends, without its filter (filter-method arguments, `where:` options, the receiver). */
function updateValues(update: DatabaseCall): Node[] {
  if (update.type === 'TaggedTemplateExpression') return update.quasi.expressions;
  if (!isOutermostCall(update)) return update.arguments;
  const values: Node[] = [];
  for (const link of methodChain(update)) {
    if (link.name !== undefined && FILTER_METHOD.test(link.name)) continue;
    for (const arg of link.call.arguments) {
      if (arg.type !== 'ObjectExpression') {
        values.push(arg);
        continue;
      }
      for (const p of arg.properties) if (p.type !== 'Property' || keyName(p) !== 'where') values.push(p);
    }
  }
  return values;
}

/**
 * A request handler's read of the rows its request names (the filter holds a value of the
 * handler's parameters), marked with no value of the request: an operator's action on named rows.
 */
export function namedByRequest(read: PendingRead, update: DatabaseCall, context: DetectContext): boolean {
  const program = context.sourceCode.ast;
  const handler = oneRequestHandlerAround(read.node, program);
  if (!handler) return false;
  if (!readFilters(read).some((filter) => fromParameters(filter, handler, context))) return false;
  if (updateValues(update).some((value) => fromParameters(value, handler, context))) return false;
  return requestHandlerAround(read.node, program) === handler || !movesState(read, handler, context.sourceCode.visitorKeys);
}

/** Method names that write the values they are handed (`update`, `updateOne`, `save`, `set`, `upsert`). */
const WRITE_METHOD = /^(?:update|save|set|upsert)/i;

/** Whether the handler, after the read, sets the state column the read filters on: in a write's values (`update({ data: { status } })`) or on the row (`row.status = 'done'`). */
function movesState(read: PendingRead, handler: FunctionNode, keys: Keys): boolean {
  const column = read.statusColumn;
  return column !== undefined && setsColumnAfter(read.node, handler, keys, (name) => name === column);
}

/**
 * Whether `fn`, after `after`, sets a column `isColumn` accepts (to a value `isValue` accepts): in
 * a write's values (`update({ data: { status } })`, `$set: { status }`) or on a row (`row.status = 'done'`).
 */
export function setsColumnAfter(
  after: Node,
  fn: FunctionNode,
  keys: Keys,
  isColumn: (name: string) => boolean,
  isValue: (value: Node) => boolean = () => true,
): boolean {
  for (const node of descendants(fn.body, keys)) {
    if (node.range[0] <= after.range[1]) continue;
    const left = node.type === 'AssignmentExpression' ? node.left : undefined;
    if (
      left?.type === 'MemberExpression' &&
      isColumn(memberPropertyName(left) ?? '') &&
      isValue((node as TSESTree.AssignmentExpression).right)
    )
      return true;
    if (node.type !== 'CallExpression' || !WRITE_METHOD.test(calleeName(node) ?? '')) continue;
    for (const argument of node.arguments)
      if ([argument, ...descendants(argument, keys)].some((n) => n.type === 'Property' && isColumn(keyName(n) ?? '') && isValue(n.value)))
        return true;
  }
  return false;
}

/** The name a call is made by (`update` of `prisma.cart.update(…)`). */
function calleeName(call: TSESTree.CallExpression): string | undefined {
  const callee = call.callee;
  return callee.type === 'Identifier' ? callee.name : callee.type === 'MemberExpression' ? memberPropertyName(callee) : undefined;
}
