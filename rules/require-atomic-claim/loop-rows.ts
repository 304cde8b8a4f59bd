// The rows a loop acts on: a `for…of` over a list, a `.forEach` / `.map` callback, or an index
// loop (`for (let i = 0; i < jobs.length; i++) { const job = jobs[i]; … }`), and the names the
// loop binds each row to.
import type { TSESTree } from '@typescript-eslint/utils';
import { descendants } from '../../analysis/sql/descendants.js';
import { isFunctionNode } from '../../analysis/sql/enclosing-function.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { patternNames, rootName } from './row-names.js';

type Node = TSESTree.Node;

/** Array methods whose callback is handed each element in turn. */
export const ITERATING_METHODS: ReadonlySet<string> = new Set(['forEach', 'map', 'flatMap']);

/** Whether a `for` loop's test bounds an index by a list's length (`i < jobs.length`). */
export function indexesOver(test: Node | null, iterates: (list: Node) => boolean): boolean {
  if (test?.type !== 'BinaryExpression' || (test.operator !== '<' && test.operator !== '<=')) return false;
  const bound = test.right;
  return bound.type === 'MemberExpression' && !bound.computed && memberPropertyName(bound) === 'length' && iterates(bound.object);
}

/** The names an index loop's body binds an element of the list to (`const job = jobs[i]`). */
export function elementNames(body: Node, lists: readonly string[]): string[] {
  const statements = body.type === 'BlockStatement' ? body.body : [body];
  return statements.flatMap((statement) =>
    statement.type !== 'VariableDeclaration'
      ? []
      : statement.declarations.flatMap((d) =>
          d.init?.type === 'MemberExpression' && d.init.computed && lists.includes(rootName(d.init.object) ?? '\0')
            ? patternNames(d.id)
            : [],
        ),
  );
}

/** The names loops in `scope` bind the elements of `lists` to: `for (const row of rows)`, `rows.forEach((row) => …)`, `const row = rows[i]`. */
export function iteratedNames(scope: Node, lists: readonly string[], keys: Parameters<typeof descendants>[1]): string[] {
  const over = (list: Node): boolean => lists.includes(rootName(list) ?? '\0');
  const names: string[] = [];
  for (const node of descendants(scope, keys)) {
    if (node.type === 'ForOfStatement' && over(node.right)) names.push(...patternNames(node.left));
    else if (node.type === 'ForStatement' && indexesOver(node.test, over)) names.push(...elementNames(node.body, lists));
    else if (node.type === 'CallExpression' && node.callee.type === 'MemberExpression' && over(node.callee.object)) {
      const callback = node.arguments[0];
      if (ITERATING_METHODS.has(memberPropertyName(node.callee) ?? '') && isFunctionNode(callback))
        names.push(...patternNames(callback.params[0]));
    }
  }
  return names;
}
