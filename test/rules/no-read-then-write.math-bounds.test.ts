// no-read-then-write on a module number clamped with `Math.max` / `Math.min`: the clamp is arithmetic
// on what it is given, no read of the largest stored value. A cursor kept in the module and moved
// within bounds (`cursor = Math.max(0, cursor - 5)`, then `cursor++`) is no cached maximum; a clamp
// of a stored maximum, or the largest of a spread list of stored rows, still is.
import { jsRuleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noReadThenWrite as unknown as Parameters<typeof jsRuleTester.run<string, readonly unknown[]>>[1];
const error = (field: string, line: number, column: number) => ({ messageId: 'nextFromHighest', data: { field }, line, column });

/** Case numbers held in `let nextNumber`, set by `fill` and handed out with `nextNumber++`. */
const cases = (fill: string) =>
  lines(
    "import { Case } from '../models/case.js';",
    'let nextNumber = 1;',
    'export async function refill() {',
    `  ${fill}`,
    '}',
    'export async function openCase(title) {',
    '  const kase = new Case({ title, caseNumber: nextNumber++ });',
    '  await kase.save();',
    '  return kase;',
    '}',
  );

jsRuleTester.run('no-read-then-write (Math clamps)', rule, {
  valid: [
    // the module's own number moved within bounds: no read
    cases('nextNumber = Math.max(1, nextNumber - 5);'),
    cases('const moved = Math.min(100, nextNumber + 5); nextNumber = Math.max(1, moved);'),
  ],
  invalid: [
    // a clamp of the stored maximum
    {
      code: cases('const top = await Case.findOne().sort({ caseNumber: -1 }); nextNumber = Math.max(1, top?.caseNumber ?? 0) + 1;'),
      errors: [error('nextNumber', 7, 46)],
    },
    // the largest of the stored rows, taken in the process
    {
      code: cases('const all = await Case.find({}); nextNumber = Math.max(...all.map((c) => c.caseNumber)) + 1;'),
      errors: [error('nextNumber', 7, 46)],
    },
  ],
});
