// The raw SQL rewrite: `SET c = $1` with `row.c + n` becomes `SET c = c + $1` (a bound joins the WHERE).
import { unwrapExpression } from '../../../analysis/ast/unwrapped-expression.js';
import type { ReadThenWriteFacts } from '../../../rules/no-read-then-write.js';
import type { SourceFileInfo, TextEdit } from '../../engine/transform.js';
import { removal, textOf, valueSlot, type Reason } from './source.js';
import { objectArgument, property, rowsCheck, slotReplacement, type Guard, type Simple } from './edit-parts.js';

export function sqlEdits(file: SourceFileInfo, facts: ReadThenWriteFacts, changes: Simple[], guard: Guard): TextEdit[] | Reason {
  const write = facts.write;
  const edits: TextEdit[] = [];
  if (write.type === 'TaggedTemplateExpression') {
    // postgres.js / `$executeRaw`: `${row.stock - qty}` → `stock - ${qty}`.
    for (const change of changes) {
      const index = write.quasi.expressions.findIndex((e) => unwrapExpression(e) === change.node);
      const slot = index === -1 ? undefined : write.quasi.expressions[index];
      const direct = slot ? { node: slot } : valueSlot(file, write, change, write.quasi.expressions);
      if (typeof direct === 'string') return direct;
      const before = textOf(file, write.quasi).lastIndexOf('${', direct.node.range[0] - write.quasi.range[0]);
      if (before === -1) return 'the value is not a template placeholder; edit the SQL by hand';
      const at = write.quasi.range[0] + before;
      const head = file.text.slice(write.quasi.range[0], at);
      if (!new RegExp(`\\b${change.field}\\s*=\\s*$`, 'i').test(head))
        return `\`${change.field}\` is not assigned from a single placeholder; edit the SQL by hand`;
      edits.push({ start: at, end: at, text: `${change.field} ${change.operator} ` });
      edits.push({ start: direct.node.range[0], end: direct.node.range[1], text: change.operand });
      if (direct.declaration) edits.push(removal(file, direct.declaration));
    }
    if (guard) {
      const change = changes[0]!;
      const end = write.quasi.range[1] - 1;
      const where = /\bwhere\b/i.test(file.text.slice(write.quasi.range[0], end));
      if (/\breturning\b/i.test(file.text.slice(write.quasi.range[0], end)))
        return 'the UPDATE has RETURNING; add the bound to its WHERE by hand';
      edits.push({ start: end, end, text: ` ${where ? 'AND' : 'WHERE'} ${change.field} - \${${change.operand}} >= 0` });
      const tag = unwrapExpression(write.tag);
      const numeric =
        tag.type === 'MemberExpression' && !tag.computed && tag.property.type === 'Identifier' && tag.property.name.startsWith('$execute');
      const check = numeric ? rowsCheck(file, guard, 'updated', 'updated === 0') : rowsCheck(file, guard, '{ count }', 'count === 0');
      if (typeof check === 'string') return check;
      edits.push(...check);
    }
    return edits;
  }
  if (write.type !== 'CallExpression') return 'the SQL is not sent by a call; edit it by hand';
  const first = write.arguments[0];
  const config = objectArgument(first);
  const sqlNode = config ? property(config, 'text')?.value : first;
  const valuesNode = config ? property(config, 'values')?.value : write.arguments[1];
  if (
    !sqlNode ||
    !(sqlNode.type === 'Literal'
      ? typeof sqlNode.value === 'string'
      : sqlNode.type === 'TemplateLiteral' && sqlNode.expressions.length === 0)
  ) {
    return 'the SQL text is not a string literal at the call (a shared constant or a built string); edit the UPDATE by hand';
  }
  const array = valuesNode && unwrapExpression(valuesNode);
  if (array?.type !== 'ArrayExpression') return 'the query values are not an array literal at the call; edit the UPDATE by hand';
  const raw = textOf(file, sqlNode);
  for (const change of changes) {
    const pattern = new RegExp(`\\b(${change.field}\\s*=\\s*)\\$(\\d+)(?!\\d)`, 'gi');
    const matches = [...raw.matchAll(pattern)];
    const match = matches[0];
    if (matches.length !== 1 || !match)
      return `\`${change.field}\` is not assigned from one \`$n\` parameter (\`?\` placeholders are positional); edit the UPDATE by hand`;
    const element = array.elements[Number(match[2]) - 1];
    if (!element || element.type === 'SpreadElement') return 'the parameter has no value in the array; edit the UPDATE by hand';
    const slot = valueSlot(file, write, change, [element]);
    if (typeof slot === 'string') return slot;
    const at = sqlNode.range[0] + match.index + match[1]!.length;
    edits.push({ start: at, end: at, text: `${change.field} ${change.operator} ` });
    edits.push(...slotReplacement(file, slot, change.operand));
  }
  if (guard) {
    const change = changes[0]!;
    const parameter = new RegExp(`\\b${change.field}\\s*=\\s*\\$(\\d+)`, 'i').exec(raw)![1];
    if (/\breturning\b/i.test(raw)) return 'the UPDATE has RETURNING; add the bound to its WHERE by hand';
    const content = raw.slice(1, -1).replace(/[\s;]+$/, '');
    const end = sqlNode.range[0] + 1 + content.length;
    edits.push({ start: end, end, text: ` ${/\bwhere\b/i.test(raw) ? 'AND' : 'WHERE'} ${change.field} - $${parameter} >= 0` });
    const check = rowsCheck(file, guard, '{ rowCount }', 'rowCount === 0');
    if (typeof check === 'string') return check;
    edits.push(...check);
  }
  return edits;
}
