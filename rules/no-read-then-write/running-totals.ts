// A running total kept on each new row of a ledger: the newest row is read (`findOne({ where: {
// owner }, order: { id: 'DESC' } })`) and a new row is inserted with its total changed in JavaScript
// (`create({ owner, change: -n, total: last.total - n })`). Two requests or replicas read the same
// newest row and insert the same next total: one change is lost from every total after it. Asked of
// `x ± y` whose operand is a field of a read; the read must sort its rows newest first and the
// insert go to the same model (the same receiver), under the field's own name.
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import type { TSESTree } from '@typescript-eslint/utils';
import { ALLOCATION_SERIALISED } from '../../src/knowledge/highest-reads.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { enclosingFunction } from '../../analysis/sql/enclosing-function.js';
import { spanToWrite } from './report-span.js';
import { highestColumns, libraryOf, originsOf, sentBy, type NextFromHighest } from './next-from-highest.js';

/** Methods that insert a new row (not `save`, which may write back the row read: the engine judges that). */
const INSERTS: ReadonlySet<string> = new Set(['create', 'createMany', 'insert', 'insertOne', 'insertMany']);

/** Whether `node` may be a running total: `a ± b` with a field or a name on one side. */
export function mayBeRunningTotal(node: TSESTree.BinaryExpression): boolean {
  const operand = (n: TSESTree.Node): boolean => n.type === 'MemberExpression' || n.type === 'Identifier';
  return (node.operator === '+' || node.operator === '-') && (operand(node.left) || operand(node.right));
}

/** The receiver a call is made on, as written (`this.ledger` of `this.ledger.findOne(…)`). */
function receiverText(call: TSESTree.CallExpression, sourceCode: Readonly<SourceCode>): string | undefined {
  const callee = unwrapExpression(call.callee);
  return callee.type === 'MemberExpression' ? sourceCode.getText(callee.object) : undefined;
}

/** The running total `value` is, when it is one inserted from the newest row of the same model; `undefined` otherwise. */
export function runningTotalOf(value: TSESTree.BinaryExpression, sourceCode: Readonly<SourceCode>): NextFromHighest | undefined {
  if (!mayBeRunningTotal(value)) return undefined;
  const sent = sentBy(value, sourceCode);
  const method = sent?.write.callee.type === 'MemberExpression' ? memberPropertyName(sent.write.callee) : undefined;
  if (!sent || sent.field === undefined || method === undefined || !INSERTS.has(method)) return undefined;
  const field = sent.field;
  const into = receiverText(sent.write, sourceCode);
  const origin = [value.left, value.right]
    .flatMap((side) => (side.type === 'PrivateIdentifier' ? [] : originsOf(side, sourceCode, [], undefined)))
    .find(
      (o) =>
        o.fields.length === 1 &&
        o.fields[0] === field &&
        into !== undefined &&
        receiverText(o.call, sourceCode) === into &&
        highestColumns(o.call, sourceCode).columns.length > 0,
    );
  if (!origin || highestColumns(origin.call, sourceCode).locked) return undefined;
  const fn = enclosingFunction(value);
  if (fn && ALLOCATION_SERIALISED.test(sourceCode.getText(fn))) return undefined;
  return { value, write: sent.write, field, read: origin.call, library: libraryOf(origin.call, sourceCode), running: true };
}

/** Where a running total is reported: from the insert's name down to the value (the write is what is reported), or as `spanToWrite` when the value comes first. */
export function runningTotalSpan(next: NextFromHighest): TSESTree.SourceLocation {
  const name = next.write.type === 'CallExpression' ? next.write.callee : next.write;
  return name.range[0] < next.value.range[0] ? { start: name.loc.start, end: next.value.loc.end } : spanToWrite(next.value, next.write);
}
