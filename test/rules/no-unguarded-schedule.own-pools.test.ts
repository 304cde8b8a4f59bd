// no-unguarded-schedule on work over what this process keeps under a pool's or a cache's name, and
// on read-only work the host-local walk now reads to its end: a walk over what a pool or cache
// getter hands out in memory (`this.hub.getSessionPool()`), the upkeep of a pool of a project class
// this module builds, a read of an entry of a client library's cache with a pause between entries,
// rows read through a name imported from a model file, a work named for health probes. Each is quiet;
// its twin (the getter awaited, a package's pool, a list read from a store, a helper module, a repair)
// is reported. Also where a work written in place is squiggled: its head, not its body's lines.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'desk' } };
const IMPORT = "import { claimPeriod } from 'replica-guard';";
const cronGuard = (job: string, cron: string) => `if (!(await claimPeriod('desk:${job}', { cron: '${cron}' }))) return;`;

/** The one suggestion: the import after line `importAfter` (0-based), the guard inserted as line `at` of `code`, indented by `indent`. */
const withGuard = (code: string, importAfter: number, at: number, indent: string, statement: string) => {
  const out = code.split('\n');
  out.splice(at, 0, `${indent}${statement}`);
  out.splice(importAfter + 1, 0, IMPORT);
  return [{ messageId: 'addClaimPeriod' as const, output: lines(...out) }];
};

/** A job class flushing what the hub holds; `pool` is how it gets the hub's sessions. */
const sessionFlush = (pool: string) =>
  lines(
    "import cron from 'node-cron';",
    'export class SessionFlushJob {',
    '  constructor(private readonly hub: Hub) {}',
    '  start() {',
    "    cron.schedule('* * * * *', async () => {",
    `      const sessions = ${pool};`,
    '      for (const id of Object.keys(sessions)) await this.hub.persistSession(sessions[id]);',
    '    });',
    '  }',
    '}',
  );

/** A minute job evicting expired entries of the cache a service hands out (`cache` is how it gets it). */
const tokenEviction = (cache: string) =>
  lines(
    "import { Injectable } from '@nestjs/common';",
    "import { Cron } from '@nestjs/schedule';",
    "import { TokenCacheService } from './token-cache.service';",
    '@Injectable()',
    'export class TokenJanitor {',
    '  constructor(private readonly tokens: TokenCacheService) {}',
    "  @Cron('* * * * *')",
    '  async dropExpired() {',
    `    const cache = ${cache};`,
    '    cache.forEach((expiresAt, key) => {',
    '      if (Date.now() > expiresAt) this.tokens.delete(key);',
    '    });',
    '  }',
    '}',
  );

/** A module building a pool of `source`'s class and cleaning it each minute. */
const poolUpkeep = (source: string) =>
  lines(
    `import { RenderPool } from '${source}';`,
    'export const renderers = new RenderPool();',
    'setInterval(() => {',
    '  renderers.cleanupStaleRenderSlots();',
    '}, 60_000);',
  );

/** A nightly refetch of each room's members, one room at a time; `rooms` is what it walks. */
const memberRefetch = (rooms: string) =>
  lines(
    "import schedule from 'node-schedule';",
    "import { Timing } from '../util/timing';",
    'export function startMemberRefetch(bot: Bot, store: RoomStore) {',
    "  schedule.scheduleJob('0 3 * * *', async () => {",
    `    for (const room of ${rooms}) {`,
    '      await room.members.fetch();',
    '      await Timing.sleep(2_000);',
    '    }',
    '  });',
    '}',
  );

/** A morning job that only logs the invoices due today, read through `Invoice` bound by `binding`. */
const dueLog = (binding: string) =>
  lines(
    "import cron from 'node-cron';",
    binding,
    "cron.schedule('0 8 * * *', async () => {",
    '  const today = new Date();',
    "  const due = await INV.find({ status: 'open' }).populate('customer', 'name');",
    '  for (const invoice of due) {',
    '    if (invoice.dueAt.toDateString() !== today.toDateString()) continue;',
    "    console.log(`due: ${invoice.customer.name.replaceAll('\\n', ' ')}`);",
    '  }',
    '});',
  );

/** A count of recent payments that only logs; `load` is what `tx` holds. */
const paymentCount = (load: string) =>
  lines(
    "import cron from 'node-cron';",
    "import Payment from './models/payment';",
    "cron.schedule('*/5 * * * *', async () => {",
    `  const tx = ${load};`,
    '  let count = 0;',
    '  tx.forEach((p) => { if (p.amount > 0) count++; });',
    "  console.log('payments', count);",
    '});',
  );

/** A minute job named `tick` running imported checks. */
const checksJob = (tick: string) =>
  lines(
    "import { CronJob } from 'cron';",
    "import { checkQueues } from '../db/checks';",
    `const ${tick} = async () => {`,
    '  await checkQueues();',
    '};',
    `new CronJob('* * * * *', ${tick}, null, true, 'UTC');`,
  );

ruleTester.run('no-unguarded-schedule (own pools, read-only work)', noUnguardedSchedule, {
  valid: [
    // The sessions a hub getter hands out, walked and saved: this process's own share.
    { settings, code: sessionFlush('this.hub.getSessionPool()') },
    // The entries of a cache a service hands out, evicted when expired.
    { settings, code: tokenEviction('this.tokens.getCache()') },
    // The upkeep of a pool of the project's own class.
    { settings, code: poolUpkeep('./render/render-pool') },
    // Each room of the client library's cache refetched, a pause between rooms.
    { settings, code: memberRefetch('bot.rooms.cache.values()') },
    // Rows read through a name imported from a model file, logged.
    { settings, code: dueLog("import INV from '../billing/invoice.model';") },
    // Rows a read loaded, walked in memory, whatever their name.
    { settings, code: paymentCount('await Payment.find({})') },
    // Health probes, by the work's name.
    { settings, code: checksJob('queueProbesTick') },
  ],
  invalid: [
    // The getter awaited: what it hands out comes from outside.
    {
      settings,
      code: sessionFlush('await this.hub.getSessionPool()'),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 5,
          column: 32,
          endLine: 5,
          endColumn: 44,
          suggestions: withGuard(sessionFlush('await this.hub.getSessionPool()'), 0, 5, '      ', cronGuard('file-5', '* * * * *')),
        },
      ],
    },
    {
      settings,
      code: tokenEviction('await this.tokens.getCache()'),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 7,
          column: 3,
          suggestions: withGuard(
            tokenEviction('await this.tokens.getCache()'),
            2,
            8,
            '    ',
            "if (!(await claimPeriod('desk:drop-expired', { cron: '* * * * *' }))) return;",
          ),
        },
      ],
    },
    // A package's pool: a client of something outside.
    {
      settings,
      code: poolUpkeep('render-farm'),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 3,
          column: 13,
          endLine: 3,
          endColumn: 19,
          suggestions: [
            {
              messageId: 'addClaimPeriod',
              output: lines(
                "import { RenderPool } from 'render-farm';",
                IMPORT,
                'export const renderers = new RenderPool();',
                'setInterval(async () => {',
                "  if (!(await claimPeriod('desk:file-3', 60_000))) return;",
                '  renderers.cleanupStaleRenderSlots();',
                '}, 60_000);',
              ),
            },
          ],
        },
      ],
    },
    // Rooms listed by a store: entries read from outside, and what `fetch` does on them is unknown.
    {
      settings,
      code: memberRefetch('await store.listRooms()'),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 4,
          column: 37,
          endLine: 4,
          endColumn: 49,
          suggestions: withGuard(memberRefetch('await store.listRooms()'), 1, 4, '    ', cronGuard('file-4', '0 3 * * *')),
        },
      ],
    },
    // The same name bound to a helper module: nothing says it reads rows.
    {
      settings,
      code: dueLog("import INV from '../billing/invoice-helpers';"),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 3,
          column: 28,
          endLine: 3,
          endColumn: 40,
          suggestions: withGuard(dueLog("import INV from '../billing/invoice-helpers';"), 1, 3, '  ', cronGuard('file-3', '0 8 * * *')),
        },
      ],
    },
    // Repairs, by the work's name: they change rows.
    {
      settings,
      code: checksJob('queueRepairTick'),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 6,
          column: 26,
          endLine: 6,
          endColumn: 41,
          suggestions: withGuard(
            checksJob('queueRepairTick'),
            1,
            3,
            '  ',
            `if (!(await claimPeriod('desk:queue-repair-tick', { cron: '* * * * *', tz: 'UTC' }))) return;`,
          ),
        },
      ],
    },
  ],
});
