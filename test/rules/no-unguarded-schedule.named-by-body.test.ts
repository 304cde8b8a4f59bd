// no-unguarded-schedule where a call's name and its body disagree, and the body (same file) decides:
// a method named for a write (`updateStats`) that only sets this process's fields and a gauge stays
// quiet, its twin that updates a table is reported; a drop of idle things that names no object
// (`closeStale`) is per replica when it closes this process's sockets, and reported when it updates
// rows of a shared table.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { lines, suggested } from './schedule-suggestion.js';

const settings = { 'replica-guard': { service: 'desk' } };

/** A stats poller whose `updateStats` runs `body`, called from a bare timer after a read. */
const poller = (...body: string[]) => [
  "import { Gauge } from 'prom-client';",
  "import { db } from './db';",
  "const pending = new Gauge({ name: 'pending', help: 'pending jobs' });",
  'class QueueStats {',
  '  private latest = 0;',
  '  async updateStats(n: number) {',
  ...body.map((statement) => `    ${statement}`),
  '  }',
  '  start() {',
  '    setInterval(async () => {',
  "      const res = await fetch('http://queue.internal/stats');",
  '      const { waiting } = (await res.json()) as { waiting: number };',
  '      await this.updateStats(waiting);',
  '    }, 10_000);',
  '  }',
  '}',
  'export const stats = new QueueStats();',
];
const inMemory = ['this.latest = n;', 'pending.set(n);'];
const toTable = ['this.latest = n;', "await db.query('UPDATE queue_stats SET waiting = $1', [n]);"];

/** `closeStale` with `body`, run every hour by a bare timer. */
const dropper = (imports: string[], ...body: string[]) => [
  ...imports,
  'async function closeStale(): Promise<void> {',
  ...body.map((statement) => `  ${statement}`),
  '}',
  'setInterval(() => {',
  '  void closeStale();',
  '}, 3_600_000);',
];
const SOCKETS = ['const sockets = new Map<string, { idleSince: number; close(): void }>();'];
const closeSockets = ['for (const [id, s] of sockets) if (Date.now() - s.idleSince > 60_000) { s.close(); sockets.delete(id); }'];
const closeTickets = ["await db.query(\"UPDATE tickets SET status = 'closed' WHERE updated_at < now() - interval '30 days'\");"];

ruleTester.run('no-unguarded-schedule: a name and its body', noUnguardedSchedule, {
  valid: [
    // named for a write, only this process's field and gauge change
    { settings, code: lines(...poller(...inMemory)) },
    // a drop of idle things closing this process's sockets
    { settings, code: lines(...dropper(SOCKETS, ...closeSockets)) },
  ],
  invalid: [
    {
      settings,
      code: lines(...poller(...toTable)),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 11,
          column: 17,
          suggestions: suggested(poller(...toTable), 1, 11, "      if (!(await claimPeriod('desk:file-11', 10_000))) return;"),
        },
      ],
    },
    {
      settings,
      code: lines(...dropper(["import { db } from './db';"], ...closeTickets)),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 5,
          column: 13,
          // the guard goes first in `closeStale`, the function the timer runs
          suggestions: suggested(
            dropper(["import { db } from './db';"], ...closeTickets),
            0,
            2,
            "  if (!(await claimPeriod('desk:close-stale', 3_600_000))) return;",
          ),
        },
      ],
    },
  ],
});
