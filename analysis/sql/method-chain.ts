// A call chain read from its root out: `knex('jobs').where({ status }).limit(10)` is
// [knex('jobs'), .where(…), .limit(…)]. Query builders and ORMs are recognised by their chains.
import type { TSESTree } from '@typescript-eslint/utils';

export interface ChainLink {
  /** The method (or, for the root call, the function) name; `undefined` when computed. */
  name: string | undefined;
  call: TSESTree.CallExpression;
  /** The property node of `.name(…)` (or the root callee), where a report about this link sits. */
  nameNode: TSESTree.Node;
  /** The receiver of `.name(…)` (`undefined` for the root call). */
  object: TSESTree.Expression | undefined;
}

/** The expression under `await`, `?.`, `!` and `as`. */
export function unwrap(node: TSESTree.Node): TSESTree.Node {
  let current = node;
  while (
    current.type === 'AwaitExpression' ||
    current.type === 'ChainExpression' ||
    current.type === 'TSNonNullExpression' ||
    current.type === 'TSAsExpression'
  ) {
    current = current.type === 'AwaitExpression' ? current.argument : current.expression;
  }
  return current;
}

/** The links of the chain ending at `call`, root first. */
export function methodChain(call: TSESTree.CallExpression): ChainLink[] {
  const links: ChainLink[] = [];
  let current: TSESTree.Node = call;
  for (let depth = 0; depth < 64; depth++) {
    current = unwrap(current);
    if (current.type !== 'CallExpression') break;
    const callee = unwrap(current.callee);
    if (callee.type === 'MemberExpression') {
      const name =
        !callee.computed && callee.property.type === 'Identifier'
          ? callee.property.name
          : callee.property.type === 'Literal'
            ? String(callee.property.value)
            : undefined;
      links.unshift({ name, call: current, nameNode: callee.property, object: callee.object });
      current = callee.object;
    } else {
      links.unshift({ name: callee.type === 'Identifier' ? callee.name : undefined, call: current, nameNode: callee, object: undefined });
      break;
    }
  }
  return links;
}

/** Whether `call` is the last call of its chain (not the receiver of another `.method(…)`). */
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
  const node = unwrap(object);
  if (node.type === 'Identifier') return node.name;
  if (node.type === 'MemberExpression' && !node.computed && node.property.type === 'Identifier') return node.property.name;
  return undefined;
}
