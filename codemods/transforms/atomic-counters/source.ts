// Source-level helpers of the `atomic-counters` rewrite: where a computed value sits in the
// write, which statements can be removed without changing what else runs, and how the
// `if (x < n) throw` check becomes a rows-affected check after the write.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import type { FieldChange } from '../../../rules/no-read-then-write.js';
import { unwrapExpression } from '../../../analysis/ast/unwrapped-expression.js';
import { indentationAt } from '../../engine/file-style.js';
import type { SourceFileInfo, TextEdit } from '../../engine/transform.js';

export type Reason = string;

/** Wrappers a value can sit in without changing (`x!`, `x as T`, `a?.b`): walked up from a call to its statement. */
const WRAPPERS = new Set(['TSNonNullExpression', 'TSAsExpression', 'TSSatisfiesExpression', 'ChainExpression', 'TSTypeAssertion']);

export function textOf(file: SourceFileInfo, node: TSESTree.Node): string {
  return file.text.slice(node.range[0], node.range[1]);
}

export function contains(outer: TSESTree.Node, inner: TSESTree.Node): boolean {
  return outer.range[0] <= inner.range[0] && inner.range[1] <= outer.range[1];
}

/** The `await <call>;` statement the call is, or undefined when its result is used. */
export function awaitedStatement(call: TSESTree.Node): TSESTree.ExpressionStatement | undefined {
  let node: TSESTree.Node = call;
  while (node.parent && WRAPPERS.has(node.parent.type)) node = node.parent;
  const awaited = node.parent?.type === 'AwaitExpression' ? node.parent : undefined;
  const statement = awaited?.parent;
  return statement?.type === 'ExpressionStatement' ? statement : undefined;
}

/** The statement a mutation (`post.views++`, `item.stock = item.stock - 1`) is. */
export function mutationStatement(node: TSESTree.Node): TSESTree.ExpressionStatement | undefined {
  let current = node;
  if (current.parent?.type === 'AssignmentExpression' && current.parent.right === current) current = current.parent;
  return current.parent?.type === 'ExpressionStatement' ? current.parent : undefined;
}

/** Removes a statement with its line when it is alone on it. */
export function removal(file: SourceFileInfo, statement: TSESTree.Node): TextEdit {
  const { text } = file;
  const lineStart = text.lastIndexOf('\n', statement.range[0] - 1) + 1;
  let lineEnd = text.indexOf('\n', statement.range[1]);
  if (lineEnd === -1) lineEnd = text.length;
  const alone = text.slice(lineStart, statement.range[0]).trim() === '' && text.slice(statement.range[1], lineEnd).trim() === '';
  return alone
    ? { start: lineStart, end: Math.min(lineEnd + 1, text.length), text: '' }
    : { start: statement.range[0], end: statement.range[1], text: '' };
}

function variableOf(file: SourceFileInfo, identifier: TSESTree.Identifier): TSESLint.Scope.Variable | undefined {
  try {
    for (let scope: TSESLint.Scope.Scope | null = file.sourceCode.getScope(identifier); scope; scope = scope.upper) {
      const variable = scope.set.get(identifier.name);
      if (variable) return variable;
    }
  } catch {
    return undefined;
  }
  return undefined;
}

/** Whether `name` (as seen from `at`) is used anywhere from `offset` on. */
export function usedAfter(file: SourceFileInfo, at: TSESTree.Node, name: string, offset: number): boolean {
  let variable: TSESLint.Scope.Variable | undefined;
  try {
    for (let scope: TSESLint.Scope.Scope | null = file.sourceCode.getScope(at); scope && !variable; scope = scope.upper)
      variable = scope.set.get(name);
  } catch {
    return true;
  }
  if (!variable) return true;
  return variable.references.some((reference) => reference.identifier.range[0] >= offset);
}

/** Where the computed value sits in the write, and the declaration that only fed it. */
export interface ValueSlot {
  /** The node in the write to replace with the new value. */
  node: TSESTree.Node;
  /** `const next = row.balance - amount;` used only by the write: removed with the rewrite. */
  declaration?: TSESTree.VariableDeclaration;
}

export function valueSlot(
  file: SourceFileInfo,
  write: TSESTree.Node,
  change: FieldChange,
  candidates: readonly TSESTree.Node[],
): ValueSlot | Reason {
  for (const candidate of candidates) {
    const node = unwrapExpression(candidate);
    if (node === change.node || contains(node, change.node)) {
      return node === change.node
        ? { node: candidate }
        : 'the written value is more than `x ± n`; do the arithmetic in the database by hand';
    }
    if (node.type !== 'Identifier' || !contains(write, node)) continue;
    const variable = variableOf(file, node);
    const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
    if (!variable || !def || (def.type as string) !== 'Variable') continue;
    const declarator = def.node as TSESTree.VariableDeclarator;
    const declaration = declarator.parent as TSESTree.VariableDeclaration;
    const others = variable.references.filter((r) => r.identifier !== node && r.identifier !== declarator.id);
    if (declarator.init && unwrapExpression(declarator.init) !== change.node && contains(declarator.init, change.node)) {
      return 'the written value is more than `x ± n`; do the arithmetic in the database by hand';
    }
    if (declarator.init && unwrapExpression(declarator.init) === change.node) {
      if (others.length > 0)
        return `\`${node.name}\` is used besides the write; it would not be the stored value — read it back from the write (RETURNING) by hand`;
      return declaration.declarations.length === 1 && declaration.kind === 'const' ? { node: candidate, declaration } : { node: candidate };
    }
    // `let balance = row.balance; balance -= amount;`: one change, then the write.
    const writes = others.filter((r) => r.isWrite());
    const changedHere = writes.length === 1 && contains(change.node, writes[0]!.identifier as TSESTree.Node);
    if (!changedHere) return `\`${node.name}\` is changed more than once before the write; do the arithmetic in the database by hand`;
    if (others.some((r) => r.isRead() && !r.isWrite() && !contains(change.node, r.identifier as TSESTree.Node))) {
      return `\`${node.name}\` is used besides the write; it would not be the stored value — read it back from the write (RETURNING) by hand`;
    }
    return { node: candidate };
  }
  return 'the computed value is not written where the codemod can see it; do the arithmetic in the database by hand';
}

/** `-amount`, `-(a + b)`, `-1`. */
export function negated(operand: string): string {
  return /^[\w$.]+$/.test(operand) ? `-${operand}` : `-(${operand})`;
}

function hasEffects(node: unknown): boolean {
  if (!node || typeof node !== 'object') return false;
  const type = (node as { type?: string }).type;
  if (
    type === 'CallExpression' ||
    type === 'AwaitExpression' ||
    type === 'NewExpression' ||
    type === 'AssignmentExpression' ||
    type === 'UpdateExpression' ||
    type === 'YieldExpression'
  )
    return true;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'parent' || key === 'loc' || key === 'range') continue;
    if (Array.isArray(value) ? value.some(hasEffects) : typeof value === 'object' && hasEffects(value)) return true;
  }
  return false;
}

/** What the rows-affected check needs: the JS check to remove and what it did on failure. */
export interface BoundRewrite {
  check: TSESTree.IfStatement;
  /** `throw new Error('insufficient funds');` or `{ … }`, as written. */
  consequent: string;
  /**
   * For an increment checked against a limit (`if (c.uses >= c.maxUses) throw`): the limit, and
   * the field of the same row it is when it is one (`maxUses`), so the write can keep `uses < limit`.
   */
  ceiling?: { limit: string; limitField: string | null };
}

const normalized = (text: string): string => text.replace(/\s+/g, '');

/**
 * The `if (x < n) throw` / `return` check before a decrement of `n`, when nothing but the read
 * and declarations runs between it and the write: it moves after the write as a rows check.
 */
export function boundRewrite(
  file: SourceFileInfo,
  facts: { boundCheck: TSESTree.IfStatement | null; operator: '+' | '-' | null; operand: string | null; readField?: string | null },
  statement: TSESTree.Statement,
): BoundRewrite | Reason {
  const check = facts.boundCheck!;
  if (facts.operator === '+' && facts.operand !== null) return ceilingRewrite(file, check, facts.readField ?? null, statement);
  if (facts.operator !== '-' || facts.operand === null)
    return 'a checked value that is not decremented by the checked amount; move the bound into the write by hand';
  if (contains(check, statement))
    return 'the write sits inside the check; move the bound into the write filter and check the rows affected by hand';
  if (check.alternate) return 'the check has an else branch; move the bound into the write filter by hand';
  const test = unwrapExpression(check.test);
  const operand = normalized(facts.operand);
  const shaped =
    test.type === 'BinaryExpression' &&
    ((test.operator === '<' && normalized(textOf(file, test.right)) === operand) ||
      (test.operator === '>' && normalized(textOf(file, test.left)) === operand));
  if (!shaped) return 'the check is not `x < amount` on the decremented amount; move the bound into the write filter by hand';
  const placed = checkPlacement(check, statement);
  return typeof placed === 'string' ? placed : { check, consequent: textOf(file, check.consequent) };
}

/**
 * `if (row.uses >= row.maxUses) throw …` before `uses + n`: the limit the write must keep below.
 * The checked side must be the incremented field of the read row; the limit is either another
 * field of that row or a value that does not come from it.
 */
function ceilingRewrite(
  file: SourceFileInfo,
  check: TSESTree.IfStatement,
  field: string | null,
  statement: TSESTree.Statement,
): BoundRewrite | Reason {
  const test = unwrapExpression(check.test);
  if (field === null || test.type !== 'BinaryExpression' || (test.operator !== '>=' && test.operator !== '<='))
    return 'the check is not `x >= limit` on the incremented field; move the bound into the write filter by hand';
  const [counted, limit] = test.operator === '>=' ? [test.left, test.right] : [test.right, test.left];
  const countedNode = unwrapExpression(counted);
  if (countedNode.type !== 'MemberExpression' || countedNode.computed || countedNode.property.type !== 'Identifier')
    return 'the check is not `x >= limit` on the incremented field; move the bound into the write filter by hand';
  if (countedNode.property.name !== field) return 'the check is on another field than the one incremented; rewrite by hand';
  const row = textOf(file, countedNode.object);
  const limitNode = unwrapExpression(limit);
  const sameRow =
    limitNode.type === 'MemberExpression' &&
    !limitNode.computed &&
    limitNode.property.type === 'Identifier' &&
    textOf(file, limitNode.object) === row;
  if (!sameRow && new RegExp(`(?<![\\w$.])${row.replace(/[$.]/g, '\\$&')}(?![\\w$])`).test(textOf(file, limitNode)))
    return 'the limit is computed from the row read; move the bound into the write filter by hand';
  const placed = checkPlacement(check, statement);
  if (typeof placed === 'string') return placed;
  const limitField = sameRow ? (limitNode.property as TSESTree.Identifier).name : null;
  return { check, consequent: textOf(file, check.consequent), ceiling: { limit: textOf(file, limitNode), limitField } };
}

/** Whether the check can move after the write: it ends in throw/return, sits before it in the same block, with only declarations between. */
function checkPlacement(check: TSESTree.IfStatement, statement: TSESTree.Statement): true | Reason {
  if (contains(check, statement))
    return 'the write sits inside the check; move the bound into the write filter and check the rows affected by hand';
  if (check.alternate) return 'the check has an else branch; move the bound into the write filter by hand';
  const body = check.consequent.type === 'BlockStatement' ? check.consequent.body : [check.consequent];
  const last = body[body.length - 1];
  if (!last || (last.type !== 'ThrowStatement' && last.type !== 'ReturnStatement'))
    return 'the check does not end in throw or return; move the bound into the write filter by hand';
  const block = check.parent;
  if (block?.type !== 'BlockStatement' || statement.parent !== block)
    return 'the check and the write are in different blocks; move the bound into the write filter by hand';
  const from = block.body.indexOf(check);
  const to = block.body.indexOf(statement);
  if (from === -1 || to <= from) return 'the check comes after the write; move the bound into the write filter by hand';
  const between = block.body.slice(from + 1, to);
  if (between.some((s) => s.type !== 'VariableDeclaration' || hasEffects(s))) {
    return 'other work runs between the check and the write; control flow depends on more than the counter — rewrite by hand';
  }
  return true;
}

/** Turns `await write;` into `const <binding> = await write;` followed by `if (<failed>) <consequent>`. */
export function rowsCheckEdits(
  file: SourceFileInfo,
  statement: TSESTree.ExpressionStatement,
  binding: string,
  failed: string,
  consequent: string,
): TextEdit[] | Reason {
  const names = binding.match(/[A-Za-z_$][\w$]*/g) ?? [];
  let fn: TSESTree.Node | undefined = statement.parent;
  while (fn && fn.type !== 'FunctionDeclaration' && fn.type !== 'FunctionExpression' && fn.type !== 'ArrowFunctionExpression')
    fn = fn.parent;
  const scopeText = fn ? textOf(file, fn) : file.text;
  const taken = names.find((name) => new RegExp(`(?<![\\w$.])${name.replace(/\$/g, '\\$')}(?![\\w$])`).test(scopeText));
  if (taken) return `\`${taken}\` is already a name here; add the rows-affected check by hand`;
  const semi = file.style.semicolons ? ';' : '';
  const ends = file.text[statement.range[1] - 1] === ';';
  return [
    { start: statement.range[0], end: statement.range[0], text: `const ${binding} = ` },
    {
      start: statement.range[1],
      end: statement.range[1],
      text: `${ends ? '' : semi}${file.style.eol}${indentationAt(file.text, statement.range[0])}if (${failed}) ${consequent}`,
    },
  ];
}
