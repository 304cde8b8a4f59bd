// Statement-level helpers for the advisory-lock rewrite: which statement of a block holds a call,
// whether a statement is only that call, and the edit that removes a statement with its line.
import type { TSESTree } from '@typescript-eslint/utils';
import type { TextEdit } from './transform.js';

/** The direct child statement of `block` that contains `node`, or undefined when `node` is not inside `block`. */
export function statementIn(block: TSESTree.BlockStatement, node: TSESTree.Node): TSESTree.Statement | undefined {
  for (let current: TSESTree.Node | undefined = node; current; current = current.parent) {
    if (current.parent === block) return current as TSESTree.Statement;
  }
  return undefined;
}

/** `await x`, `(x)`, `x!` → `x`. */
export function withoutAwait(node: TSESTree.Node): TSESTree.Node {
  let current = node;
  while (current.type === 'AwaitExpression' || current.type === 'TSNonNullExpression' || current.type === 'ChainExpression') {
    current = current.type === 'AwaitExpression' ? current.argument : current.expression;
  }
  return current;
}

/** Whether `statement` is only `call` (awaited or not): `await pool.query('…');`. */
export function isCallStatement(statement: TSESTree.Node, call: TSESTree.Node): boolean {
  return statement.type === 'ExpressionStatement' && withoutAwait(statement.expression) === call;
}

/** `return;` or `{ return; }`: an exit without a value. */
export function isBareReturn(statement: TSESTree.Statement): 'bare' | 'value' | undefined {
  const single = statement.type === 'BlockStatement' && statement.body.length === 1 ? statement.body[0]! : statement;
  if (single.type !== 'ReturnStatement') return undefined;
  return single.argument ? 'value' : 'bare';
}

export const contains = (outer: { range: readonly [number, number] }, offset: number): boolean =>
  offset >= outer.range[0] && offset < outer.range[1];

/**
 * Removes `node` and, when it is alone on its lines, those whole lines. A comment after it on its
 * last line stays, at the statement's indentation (`await migrate(); // on start` → `// on start`).
 */
export function removalEdit(text: string, node: { range: readonly [number, number] }): TextEdit {
  let [start, end] = node.range;
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const before = text.slice(lineStart, start);
  let lineEnd = text.indexOf('\n', end);
  if (lineEnd === -1) lineEnd = text.length;
  const after = text.slice(end, lineEnd);
  if (/^[ \t]*$/.test(before) && /^[ \t\r]*$/.test(after)) {
    start = lineStart;
    end = Math.min(lineEnd + 1, text.length);
  } else if (/^[ \t]*$/.test(before) && /^[ \t]+\/[/*]/.test(after)) {
    end += /^[ \t]+/.exec(after)![0].length;
  }
  return { start, end, text: '' };
}

/** Whether a node's subtree holds something that means another thing inside an arrow callback. */
export function escapingStatement(root: TSESTree.Node, options: { returns?: boolean } = {}): string | undefined {
  let found: string | undefined;
  const visit = (node: TSESTree.Node, inFunction: boolean): void => {
    if (found) return;
    const isFunction = node.type === 'FunctionDeclaration' || node.type === 'FunctionExpression' || node.type === 'ArrowFunctionExpression';
    if (!inFunction && !options.returns && node.type === 'ReturnStatement') found = 'the work returns from the function';
    if (!inFunction && node.type === 'YieldExpression') found = 'the work yields';
    if (
      !inFunction &&
      node.type === 'Identifier' &&
      node.name === 'arguments' &&
      !(node.parent?.type === 'MemberExpression' && node.parent.property === node && !node.parent.computed)
    )
      found = 'the work reads `arguments`';
    for (const key of Object.keys(node) as Array<keyof typeof node>) {
      if (key === 'parent') continue;
      const value = node[key] as unknown;
      const children = Array.isArray(value) ? value : [value];
      for (const child of children) {
        if (child && typeof child === 'object' && typeof (child as { type?: unknown }).type === 'string')
          visit(child as TSESTree.Node, inFunction || isFunction);
      }
    }
  };
  visit(root, false);
  return found;
}
