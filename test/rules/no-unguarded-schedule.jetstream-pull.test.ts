// no-unguarded-schedule on a poll loop pulling batches from a JetStream consumer its file acks
// (`await this.consumer.fetch({ max_messages, expires })`, then `msg.ack()`): the server hands each
// message to one puller, so replicas share the stream — quiet. The twins: the same loop in a file
// that never acks (an ordered consumer replays everything to each), or a loop whose pass opens with
// an HTTP `fetch` in a file that imports no NATS client, are reported at the loop's head.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');

/** A meter-reading sink: `importLine` first, the pass opening with `pull`, each reading then handled by `done`. */
const sink = (importLine: string, pull: string, done: string) =>
  lines(
    importLine,
    "import { setTimeout as sleep } from 'node:timers/promises';",
    "import { db } from './db';",
    'export class MeterSink {',
    '  halted = false;',
    '  constructor(private readings) {}',
    '  async pump() {',
    '    while (!this.halted) {',
    '      try {',
    `        const got = await ${pull};`,
    '        const batch = [];',
    '        for await (const reading of got) batch.push(reading);',
    '        if (batch.length === 0) {',
    '          await sleep(1000);',
    '          continue;',
    '        }',
    '        for (const reading of batch) {',
    '          await db.meter.create({ data: { raw: String(reading.data) } });',
    `          ${done}`,
    '        }',
    '      } catch (err) {',
    '        console.error(err);',
    '      }',
    '    }',
    '  }',
    '}',
  );

const NATS = "import type { JsMsg } from 'nats';";
const atHead = [{ messageId: 'unguardedSchedule' as const, line: 8, column: 5 }];

ruleTester.run('no-unguarded-schedule: a pull loop of an acked JetStream consumer', noUnguardedSchedule, {
  valid: [
    { code: sink(NATS, 'this.readings.fetch({ max_messages: 25, expires: 4000 })', 'reading.ack();') },
    { code: sink("import { AckPolicy } from '@nats-io/jetstream';", 'this.readings.fetch({ batch: 10 })', 'await reading.ackAck();') },
  ],
  invalid: [
    { code: sink(NATS, 'this.readings.fetch({ max_messages: 25, expires: 4000 })', 'reading.working();'), errors: atHead },
    {
      code: sink("import { ack } from './meter-acks';", 'this.readings.fetch({ batch: 10, expires: 2000 })', 'reading.ack();'),
      errors: atHead,
    },
  ],
});
