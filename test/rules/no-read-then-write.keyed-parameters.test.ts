// no-read-then-write when a function writes a row it was handed back by the row's own key, in the
// model the parameter is named for (`runTask(task)` … `prisma.task.update({ where: { id: task.id
// }, data: { tries: task.tries + 1 } })`): the caller loaded the row, and the count written from
// the copy overwrites what another worker wrote since. Not reported: another model written, the
// row named by another key, a parameter named for no model written, the database doing the sum, a
// function the module does not export (its calls in the file say what it is handed).
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noReadThenWrite as unknown as Parameters<typeof ruleTester.run<string, readonly unknown[]>>[1];
const error = (messageId: string, field: string, line: number, column: number) => ({ messageId, data: { field }, line, column });

/** A worker step given a task row (`param`): `write` in its failure branch. */
const step = (write: string, param = 'task') =>
  lines(
    "import { prisma } from '../db';",
    `export const runTask = async (${param}: any) => {`,
    '  try {',
    `    await deliver(${param}.payload);`,
    '  } catch (error) {',
    `    ${write}`,
    '  }',
    '};',
  );

ruleTester.run('no-read-then-write (a row written back by its own key)', rule, {
  valid: [
    // another model's row
    step('await prisma.notice.update({ where: { id: task.id }, data: { tries: task.tries + 1 } });'),
    // named by another key
    step('await prisma.task.update({ where: { id: task.parentId }, data: { tries: task.tries + 1 } });'),
    // a parameter named for no model written
    step('await prisma.task.update({ where: { id: item.id }, data: { tries: item.tries + 1 } });', 'item'),
    // the database does the sum
    step('await prisma.task.update({ where: { id: task.id }, data: { tries: { increment: 1 } } });'),
    // a function of the file, not exported: its calls here say what it is handed
    step('await prisma.task.update({ where: { id: task.id }, data: { tries: task.tries + 1 } });').replace('export const', 'const'),
  ],
  invalid: [
    {
      code: step(
        'const tries = task.tries + 1;\n    await prisma.task.update({ where: { id: task.id }, data: { tries, failedAt: new Date() } });',
      ),
      errors: [error('prisma', 'tries', 7, 23)],
    },
    {
      code: step('await Task.updateOne({ _id: task._id }, { $set: { tries: task.tries + 1 } });'),
      errors: [error('mongoose', 'tries', 6, 16)],
    },
  ],
});
