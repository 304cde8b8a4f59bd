// A value read from one row and written to another is not written back. Copying a source
// version's fields into a target version (`findUnique({ where: { id: sourceId } })`, then
// `update({ where: { id: targetId }, data: { ...copied } })`) loses nothing when two requests do
// it at once: the read row is not rewritten, and the last writer leaves the target with the same
// copy. Told by the filters: the read and the write pick their rows by the same key field with
// two different values, neither taken from the row read. Asked of findings only.
import { chainRoot } from '../../analysis/ast/chain-root.js';
import type { TSESTree } from '@typescript-eslint/utils';
import type { DetectContext } from '../../analysis/detect-context.js';
import { methodChainOf } from '../../analysis/ast/method-chain.js';
import { propertyKeyName } from '../../analysis/ast/property-names.js';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { IDENTITY_FIELD } from '../../src/knowledge/orm-reads-writes.js';
import type { ReadThenWriteFacts } from './model.js';

type Node = TSESTree.Node;

const FILTER_LINKS: ReadonlySet<string | undefined> = new Set(['where', 'andWhere']);
const MAX_HOPS = 2;

/** `{ key: value }` pairs of an object filter (its `where:` object when it has one), on identity keys. */
function objectKeys(node: Node | undefined, out: Map<string, Node>): void {
  const expr = node && node.type !== 'SpreadElement' ? unwrapExpression(node) : undefined;
  if (expr?.type !== 'ObjectExpression') return;
  for (const p of expr.properties) {
    if (p.type !== 'Property') continue;
    const key = propertyKeyName(p);
    if (key === 'where') objectKeys(p.value, out);
    else if (key !== undefined && IDENTITY_FIELD.test(key)) out.set(key, p.value);
  }
}

/**
 * The identity keys a call picks its row by: an object filter, a builder's `.where('id', x)` /
 * `.where({ id })`, and for a read the criteria its last method is given (`findOneBy({ id })`).
 */
function keysOf(call: Node, filter: Node | undefined, criteria: boolean): Map<string, Node> {
  const out = new Map<string, Node>();
  if (filter) objectKeys(filter, out);
  if (call.type !== 'CallExpression') return out;
  const { links } = methodChainOf(call, { await: true });
  for (const link of links) {
    const [first, second, third] = link.call.arguments;
    if (FILTER_LINKS.has(link.name)) {
      const value = third ?? second;
      if (first?.type === 'Literal' && typeof first.value === 'string' && value && IDENTITY_FIELD.test(first.value.split('.').pop() ?? ''))
        out.set(first.value.split('.').pop() ?? first.value, value);
      else objectKeys(first, out);
    } else if (criteria && link === links[links.length - 1]) objectKeys(first, out);
  }
  return out;
}

/** The name the read's row is bound to (`const row = await read`), if any. */
function boundName(read: Node): string | undefined {
  let node: Node = read;
  while (node.parent && (node.parent.type === 'AwaitExpression' || node.parent.type === 'TSNonNullExpression')) node = node.parent;
  const parent = node.parent;
  return parent?.type === 'VariableDeclarator' && parent.init === node && parent.id.type === 'Identifier' ? parent.id.name : undefined;
}

/** A key value as the text it stands for: a name or member path, through constants declared from one; `undefined` for anything else. */
function keyText(node: Node, context: DetectContext, hops = MAX_HOPS): string | undefined {
  const expr = unwrapExpression(node);
  if (expr.type === 'MemberExpression' && !expr.computed) {
    const object = keyText(expr.object, context, hops);
    return object === undefined || expr.property.type !== 'Identifier' ? undefined : `${object}.${expr.property.name}`;
  }
  if (expr.type === 'ThisExpression') return 'this';
  if (expr.type !== 'Identifier') return undefined;
  const def = scopeVariable(context.sourceCode, expr)?.defs[0];
  const declarator = def?.node as Node | undefined;
  if (
    hops > 0 &&
    def?.type === 'Variable' &&
    declarator?.type === 'VariableDeclarator' &&
    declarator.id.type === 'Identifier' &&
    declarator.init
  ) {
    const init = unwrapExpression(declarator.init);
    if (init.type === 'Identifier' || init.type === 'MemberExpression') return keyText(init, context, hops - 1) ?? expr.name;
  }
  return expr.name;
}

/** Whether a key value is taken from a loaded row (`to.id` with `const to = await …`): that row may be the one written back. */
function fromLoadedRow(node: Node, context: DetectContext): boolean {
  const root = chainRoot(node, { unwrap: 'wrappers' });
  if (!root || root === unwrapExpression(node)) return false;
  const def = scopeVariable(context.sourceCode, root)?.defs[0];
  const declarator = def?.node as Node | undefined;
  return declarator?.type === 'VariableDeclarator' && declarator.init?.type === 'AwaitExpression';
}

/** Whether the finding's write picks another row than its read: one identity key, two values, neither from a row read. */
export function writesAnotherRow(facts: ReadThenWriteFacts, context: DetectContext): boolean {
  // A counter moved with a checked state (counted-transitions.ts) is another row's by design.
  if (facts.read.type !== 'CallExpression' || facts.write.type !== 'CallExpression' || facts.countedTransition) return false;
  const read = keysOf(facts.read, undefined, true);
  if (read.size === 0) return false;
  const written = keysOf(facts.write, facts.writeShape.filter, false);
  const row = boundName(facts.read);
  let differs = false;
  for (const [key, value] of written) {
    const readValue = read.get(key);
    if (!readValue) continue;
    const a = keyText(readValue, context);
    const b = keyText(value, context);
    if (a === undefined || b === undefined || fromLoadedRow(value, context)) return false;
    if (a === b || (row !== undefined && (b === row || b.startsWith(`${row}.`)))) return false;
    differs = true;
  }
  return differs;
}
