// A Redis key as `no-read-then-write` compares it: the text it builds, not the way it is spelt.
// `` `quota:${id}` ``, `'quota:' + id`, a `const key = …` declared from either, and a helper of
// the same file that returns one (`const quotaKey = (id) => `quota:${id}``, called `quotaKey(id)`)
// are one key. Strings are their value, every other part its source text (spaces dropped) inside
// `${…}`. Asked only of a Redis read or write already recognised, so a file pays nothing else.
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { returnedExpressions } from '../../analysis/ast/returned-expressions.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { isFunctionNode } from '../../analysis/sql/enclosing-function.js';

type Node = TSESTree.Node;
type SourceCode = Readonly<TSESLint.SourceCode>;

/** How deep declarations and helpers are followed (`const key = keyOf(id)` → `keyOf` → its template). */
const MAX_DEPTH = 4;

/** The source text of a dynamic part, or the key it stands for when a parameter of a helper being inlined names it. */
type Parameters = ReadonlyMap<string, string>;

const dynamic = (text: string): string => `\${${text}}`;

/** The declaration a name is bound to, when it is a `const` (or a function declaration) of this file. */
function constantOf(id: TSESTree.Identifier, sourceCode: SourceCode): Node | null {
  const variable = scopeVariable(sourceCode, id);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (!def) return null;
  if (def.type === 'FunctionName' && def.node.type === 'FunctionDeclaration') return def.node;
  if (def.node.type !== 'VariableDeclarator' || def.parent?.type !== 'VariableDeclaration' || def.parent.kind !== 'const') return null;
  return def.node.id.type === 'Identifier' ? def.node.init : null;
}

/** A helper's one returned expression, with its parameters bound to the arguments' keys. */
function inlined(call: TSESTree.CallExpression, sourceCode: SourceCode, parameters: Parameters, depth: number): string | null {
  const callee = unwrapExpression(call.callee);
  if (callee.type !== 'Identifier') return null;
  const fn = constantOf(callee, sourceCode);
  if (!fn || !isFunctionNode(fn)) return null;
  const returned = returnedExpressions(fn);
  const body = returned.length === 1 ? returned[0] : undefined;
  if (!body) return null;
  const bound = new Map<string, string>();
  for (const [i, param] of fn.params.entries()) {
    if (param.type !== 'Identifier') return null;
    const argument = call.arguments[i];
    if (!argument || argument.type === 'SpreadElement') return null;
    bound.set(param.name, canonical(argument, sourceCode, parameters, depth + 1));
  }
  return canonical(body, sourceCode, bound, depth + 1);
}

/** The parts of a `+` chain, left to right. */
function concatenated(node: Node, out: Node[]): void {
  const expr = unwrapExpression(node);
  if (expr.type === 'BinaryExpression' && expr.operator === '+') {
    concatenated(expr.left, out);
    concatenated(expr.right, out);
  } else out.push(expr);
}

function canonical(node: Node, sourceCode: SourceCode, parameters: Parameters, depth: number): string {
  const expr = unwrapExpression(node);
  const text = (): string => sourceCode.getText(expr).replace(/\s+/g, '');
  if (expr.type === 'Literal' && (typeof expr.value === 'string' || typeof expr.value === 'number')) return String(expr.value);
  if (depth > MAX_DEPTH) return dynamic(text());
  if (expr.type === 'TemplateLiteral') {
    let out = '';
    expr.quasis.forEach((quasi, i) => {
      out += quasi.value.cooked ?? quasi.value.raw;
      const part = expr.expressions[i];
      if (part) out += canonical(part, sourceCode, parameters, depth + 1);
    });
    return out;
  }
  if (expr.type === 'BinaryExpression' && expr.operator === '+') {
    const parts: Node[] = [];
    concatenated(expr, parts);
    // A sum of numbers is not a key built from parts: only a chain holding a string is.
    const stringy = parts.some((part) => (part.type === 'Literal' && typeof part.value === 'string') || part.type === 'TemplateLiteral');
    if (stringy) return parts.map((part) => canonical(part, sourceCode, parameters, depth + 1)).join('');
  }
  if (expr.type === 'Identifier') {
    const bound = parameters.get(expr.name);
    if (bound !== undefined) return bound;
    const init = constantOf(expr, sourceCode);
    const value = init ? unwrapExpression(init) : null;
    if (
      value &&
      ((value.type === 'Literal' && typeof value.value === 'string') ||
        value.type === 'TemplateLiteral' ||
        value.type === 'BinaryExpression' ||
        value.type === 'CallExpression')
    ) {
      const key = canonical(value, sourceCode, new Map(), depth + 1);
      // A declaration that builds nothing we can read is the name itself.
      if (key !== dynamic(sourceCode.getText(value).replace(/\s+/g, ''))) return key;
    }
    return dynamic(expr.name);
  }
  if (expr.type === 'CallExpression') {
    const key = inlined(expr, sourceCode, parameters, depth);
    if (key !== null) return key;
  }
  return dynamic(text());
}

/** The key `node` builds, as compared between a read and a write; `null` for no key. */
export function redisKeyOf(node: Node | undefined, sourceCode: SourceCode): string | null {
  if (!node || node.type === 'SpreadElement') return null;
  return canonical(node, sourceCode, new Map(), 0);
}
