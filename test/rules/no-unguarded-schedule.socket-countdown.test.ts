// no-unguarded-schedule on a timer of a scheduler module (a declared job by its file name) that only
// tells this process's socket.io clients something computed in memory (a countdown emitted through
// `io.to(room).emit`): quiet, each replica speaks to its own clients. The same countdown emitted on a
// bus, or a count read from the database before the emit, is reported.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'ledger' } };
const filename = 'src/bidding-scheduler.ts';
const IMPORT = "import { claimPeriod } from 'replica-guard';";
const GUARD = "  if (!(await claimPeriod('ledger:bidding-scheduler-3', 1000))) return;";

/** A lobby countdown: `emitter` sends `payload` each second. */
const countdown = (emitter: string, imported: string) =>
  lines(
    `import { ${imported} } from './server';`,
    'const closesAt = Date.now() + 60 * 60 * 1000;',
    'setInterval(() => {',
    '  const left = Math.max(0, Math.round((closesAt - Date.now()) / 1000));',
    `  ${emitter}('countdown', { left });`,
    '}, 1000);',
  );

const bidCount = lines(
  "import { io } from './server';",
  "import { db } from './db';",
  'setInterval(async () => {',
  '  const bids = await db.bid.count();',
  "  io.to('lobby').emit('countdown', { bids });",
  '}, 1000);',
);

ruleTester.run('no-unguarded-schedule: a countdown for this process’s socket.io clients', noUnguardedSchedule, {
  valid: [
    { settings, filename, code: countdown("io.to('lobby').emit", 'io') },
    { settings, filename, code: countdown('io.emit', 'io') },
  ],
  invalid: [
    // An emit on a bus, not the socket server's.
    {
      settings,
      filename,
      code: countdown('bus.emit', 'bus'),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 3,
          column: 13,
          suggestions: [
            {
              messageId: 'addClaimPeriod',
              output: lines(
                "import { bus } from './server';",
                IMPORT,
                'const closesAt = Date.now() + 60 * 60 * 1000;',
                'setInterval(async () => {',
                GUARD,
                '  const left = Math.max(0, Math.round((closesAt - Date.now()) / 1000));',
                "  bus.emit('countdown', { left });",
                '}, 1000);',
              ),
            },
          ],
        },
      ],
    },
    // A count read from the database each second: the emit is no longer only what this process holds.
    {
      settings,
      filename,
      code: bidCount,
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 3,
          column: 13,
          suggestions: [
            {
              messageId: 'addClaimPeriod',
              output: lines(
                "import { io } from './server';",
                "import { db } from './db';",
                IMPORT,
                'setInterval(async () => {',
                GUARD,
                '  const bids = await db.bid.count();',
                "  io.to('lobby').emit('countdown', { bids });",
                '}, 1000);',
              ),
            },
          ],
        },
      ],
    },
  ],
});
