// A call chain read as method names: `knex('t').where(w).first()` is root `knex('t')` with links
// `where`, `first`; `prisma.user.findUnique(q)` is root `prisma.user` with link `findUnique`.
// Query builders and ORMs are recognised from this one view, by every rule.
import type { TSESTree } from '@typescript-eslint/utils';
import { memberPropertyName } from './property-names.js';
import { unwrapExpression } from './unwrapped-expression.js';

export interface ChainLink {
  /** The method name (for a root call `knex('t')`, the function name); `undefined` when computed. */
  name: string | undefined;
  /** The call of this method (`.where(w)`). */
  call: TSESTree.CallExpression;
  /** The property node of `.name(…)` (or the callee of a root call): where a report about this link sits. */
  nameNode: TSESTree.Node;
  /** The receiver of `.name(…)`; `undefined` for a root call. */
  object: TSESTree.Expression | undefined;
}

export interface MethodChain {
  /** The member calls, innermost first. */
  links: ChainLink[];
  /** What the first method is called on (`prisma.user`, `knex('t')`, `db`), unwrapped. */
  root: TSESTree.Node;
}

export interface ChainOptions {
  /** Read through `await` between links (`(await repo()).find()`). */
  await?: boolean;
}

const MAX_LINKS = 64;

/** The method calls of the chain that ends at `call`, innermost first, and what the first is called on. */
export function methodChainOf(call: TSESTree.CallExpression, options: ChainOptions = {}): MethodChain {
  const links: ChainLink[] = [];
  let node: TSESTree.Node = unwrapExpression(call, options);
  while (node.type === 'CallExpression' && links.length < MAX_LINKS) {
    const callee = unwrapExpression(node.callee);
    if (callee.type !== 'MemberExpression') break;
    links.push({ name: memberPropertyName(callee), call: node, nameNode: callee.property, object: callee.object });
    node = unwrapExpression(callee.object, options);
  }
  links.reverse();
  return { links, root: node };
}

/**
 * The links of the chain ending at `call`, root first, with a plain root call (`knex('jobs')`,
 * `sql(…)`) as the first link; through `await`.
 */
export function chainLinksOf(call: TSESTree.CallExpression): ChainLink[] {
  const { links, root } = methodChainOf(call, { await: true });
  if (root.type !== 'CallExpression') return links;
  const callee = unwrapExpression(root.callee);
  const name = callee.type === 'Identifier' ? callee.name : undefined;
  return [{ name, call: root, nameNode: callee, object: undefined }, ...links];
}

/** The outermost call of the chain `call` belongs to (`db.update(t).set(v).where(w)` from `set`). */
export function outermostCallOf(call: TSESTree.CallExpression): TSESTree.CallExpression {
  let current: TSESTree.CallExpression = call;
  for (let i = 0; i < MAX_LINKS; i++) {
    const member = current.parent;
    if (member?.type !== 'MemberExpression' || member.object !== current) break;
    const next = member.parent;
    if (next?.type !== 'CallExpression' || next.callee !== member) break;
    current = next;
  }
  return current;
}

/** Whether `call` is the last call of its chain (not the receiver of another `.method(…)`), through `?.` and `!`. */
export function isOutermostCall(call: TSESTree.CallExpression): boolean {
  let node: TSESTree.Node = call;
  while (node.parent && (node.parent.type === 'ChainExpression' || node.parent.type === 'TSNonNullExpression')) node = node.parent;
  const parent = node.parent;
  return !(
    parent?.type === 'MemberExpression' &&
    parent.object === node &&
    parent.parent?.type === 'CallExpression' &&
    parent.parent.callee === parent
  );
}

/** The innermost receiver name of a link's object (`prisma.outboxEvent` → `outboxEvent`, `this.jobRepo` → `jobRepo`). */
export function receiverName(object: TSESTree.Node | undefined): string | undefined {
  if (!object) return undefined;
  const node = unwrapExpression(object, { await: true });
  if (node.type === 'Identifier') return node.name;
  if (node.type === 'MemberExpression' && !node.computed && node.property.type === 'Identifier') return node.property.name;
  return undefined;
}
