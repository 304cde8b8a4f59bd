// no-unguarded-schedule on a poll loop that begins each pass by taking one document atomically —
// `findOneAndDelete(filter)`, or `findOneAndUpdate(filter, update)` whose update sets a field the
// filter tests — in the loop or in a method of its class, and leaves the pass when nothing came
// back: two replicas never get the same document, quiet. The twins (a `findOne` then a
// `deleteOne`, an update that leaves the filter's fields alone) are reported at the loop's head.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');

/** A printer queue whose `nextPrint()` runs `take`, polled by `drain()`. */
const spooler = (...take: string[]) =>
  lines(
    "import { setTimeout as pause } from 'node:timers/promises';",
    'export class Spooler {',
    '  active = true;',
    '  constructor(private prints, private press) {}',
    '  async nextPrint() {',
    "    const due = { kind: 'print', notBefore: { $lte: new Date() } };",
    ...take,
    '  }',
    '  async drain() {',
    '    while (this.active) {',
    '      try {',
    '        const print = await this.nextPrint();',
    '        if (!print) {',
    '          await pause(2000);',
    '          continue;',
    '        }',
    '        await this.press.run(print.pages);',
    '        await this.prints.insertOne({ kind: "printed", of: print._id });',
    '      } catch (err) {',
    '        console.error(err);',
    '      }',
    '    }',
    '  }',
    '}',
  );

/** The loop's head (`while (this.active) `), nine lines after the `take` lines. */
const atHead = (takeLines: number) => [{ messageId: 'unguardedSchedule' as const, line: 9 + takeLines, column: 5 }];

ruleTester.run('no-unguarded-schedule: a poll loop taking each item atomically', noUnguardedSchedule, {
  valid: [
    { code: spooler('    return this.prints.findOneAndDelete(due);') },
    {
      code: spooler(
        "    const taken = await this.prints.findOneAndUpdate({ ...due, state: 'queued' }, { $set: { state: 'printing' } });",
        '    return taken;',
      ),
    },
    {
      // Taken in the loop itself.
      code: lines(
        'export async function follow(labels, press, pause) {',
        '  for (;;) {',
        "    const label = await labels.findOneAndUpdate({ state: 'new' }, { $set: { state: 'sent', at: new Date() } });",
        '    if (!label) { await pause(500); continue; }',
        '    await press.send(label);',
        '  }',
        '}',
      ),
    },
  ],
  invalid: [
    {
      code: spooler(
        '    const print = await this.prints.findOne(due);',
        '    if (print) await this.prints.deleteOne({ _id: print._id });',
        '    return print;',
      ),
      errors: atHead(3),
    },
    {
      code: spooler("    return this.prints.findOneAndUpdate({ ...due, state: 'queued' }, { $inc: { polled: 1 } });"),
      errors: atHead(1),
    },
  ],
});
