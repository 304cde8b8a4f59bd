// A call chain read as method names: `knex('t').where(w).first()` is root `knex('t')` with links
// `where`, `first`; `prisma.user.findUnique(q)` is root `prisma.user` with link `findUnique`.
// Every read and write shape of the query builders and ORMs is recognised from this one view.
import type { TSESTree } from '@typescript-eslint/utils';

export interface ChainLink {
  name: string;
  /** The call of this method (`.where(w)`). */
  call: TSESTree.CallExpression;
  /** The method name as written (where a squiggle for this link belongs). */
  property: TSESTree.Node;
}

export interface MethodChain {
  /** Innermost first. */
  links: ChainLink[];
  /** What the first method is called on (`prisma.user`, `knex('t')`, `db`). */
  root: TSESTree.Node;
}

/** The static name of a member's property (`a.b`, `a['b']`), if it has one. */
export function propertyName(member: TSESTree.MemberExpression): string | undefined {
  if (!member.computed && member.property.type === 'Identifier') return member.property.name;
  if (member.property.type === 'Literal' && typeof member.property.value === 'string') return member.property.value;
  return undefined;
}

/** Strips wrappers that do not change a value: `x!`, `x as T`, `(x satisfies T)`, `a?.b`. */
export function unwrap(node: TSESTree.Node): TSESTree.Node {
  let current = node;
  for (;;) {
    if (
      current.type === 'TSNonNullExpression' ||
      current.type === 'TSAsExpression' ||
      current.type === 'TSSatisfiesExpression' ||
      current.type === 'TSTypeAssertion' ||
      current.type === 'ChainExpression'
    ) {
      current = current.expression;
    } else {
      return current;
    }
  }
}

const MAX_LINKS = 64;

export function methodChainOf(call: TSESTree.CallExpression): MethodChain {
  const links: ChainLink[] = [];
  let node: TSESTree.Node = call;
  while (node.type === 'CallExpression' && links.length < MAX_LINKS) {
    const callee = unwrap(node.callee);
    if (callee.type !== 'MemberExpression') break;
    const name = propertyName(callee);
    if (name === undefined) break;
    links.push({ name, call: node, property: callee.property });
    node = unwrap(callee.object);
  }
  links.reverse();
  return { links, root: node };
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
