// no-read-then-write when the largest stored number is cached in a variable of the module and
// handed out plus one: every replica fills its own copy from the same maximum and hands out the
// same case numbers. Not reported: a module counter filled from no read, a function's own `let`,
// a `for` loop's step, a holder filled from the latest row by date.
import { jsRuleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noReadThenWrite as unknown as Parameters<typeof jsRuleTester.run<string, readonly unknown[]>>[1];
const error = (field: string, line: number, column: number) => ({ messageId: 'nextFromHighest', data: { field }, line, column });

/** Case numbers held in `let nextNumber`, filled by `fill` at start-up and handed out by `step`. */
const cases = (fill: string, step = 'nextNumber++') =>
  lines(
    "import { Case } from '../models/case.js';",
    'let nextNumber;',
    'export async function init() {',
    `  ${fill}`,
    '}',
    'export async function openCase(title) {',
    `  const kase = new Case({ title, caseNumber: ${step} });`,
    '  await kase.save();',
    '  return kase;',
    '}',
  );

const TOP = 'const top = await Case.findOne().sort({ caseNumber: -1 });';

jsRuleTester.run('no-read-then-write (a maximum cached in a module variable)', rule, {
  valid: [
    // a counter of this process's own cases, filled from no read
    cases('nextNumber = 1;'),
    // the latest case by date is no maximum of the number handed out
    cases('const top = await Case.findOne().sort({ openedAt: -1 }); nextNumber = (top?.caseNumber ?? 0) + 1;'),
    // a function's own number, and a loop's step
    lines(
      "import { Case } from '../models/case.js';",
      'export async function renumber(ids) {',
      '  const top = await Case.findOne().sort({ caseNumber: -1 });',
      '  let n = top.caseNumber;',
      '  for (let i = 0; i < ids.length; i++) await Case.updateOne({ _id: ids[i] }, { $set: { order: i } });',
      '  n++;',
      '  return n;',
      '}',
    ),
  ],
  invalid: [
    // filled already plus one, handed out with ++
    { code: cases(`${TOP} nextNumber = (top?.caseNumber ?? 0) + 1;`), errors: [error('nextNumber', 7, 46)] },
    // filled with the maximum, stepped with += 1 before it is used
    {
      code: lines(
        "import { Case } from '../models/case.js';",
        'let lastNumber = 0;',
        'export async function openCase(title) {',
        '  if (lastNumber === 0) {',
        '    const top = await Case.findOne({}, { caseNumber: 1 }).sort({ caseNumber: -1 });',
        '    lastNumber = top ? top.caseNumber : 0;',
        '  }',
        '  lastNumber += 1;',
        '  const kase = new Case({ title, caseNumber: lastNumber });',
        '  await kase.save();',
        '}',
      ),
      errors: [error('lastNumber', 8, 3)],
    },
  ],
});
