// no-unguarded-schedule on timers whose work keeps only this process's memory, reached through a
// write-named call: a module singleton of a class in the same file (`limiter.cleanup()`), a field
// or `const` the file builds as a cache (`this.cache.purgeStale()` on `new LRUCache(…)`), a lease
// or lock class renewing itself (`this.renew()` in `class JobLease`). Each is quiet; its twin whose
// method writes to the database, whose receiver is a client, or whose class is not a lease is
// reported. Also `later.setInterval` (@breejs/later), a cron clock of its own.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'market' } };
const IMPORT = "import { claimPeriod } from 'replica-guard';";

/** A rate limiter class and its module singleton; `body` is `cleanup`'s statements. */
const limiter = (...body: string[]) =>
  lines(
    "import { db } from './db';",
    'class SessionLimiter {',
    '  private windows = new Map<string, number>();',
    '  async cleanup(): Promise<void> {',
    ...body.map((statement) => `    ${statement}`),
    '  }',
    '}',
    'export const limiter = new SessionLimiter();',
    'setInterval(() => {',
    '  void limiter.cleanup();',
    '}, 60_000);',
  );
const pruneWindows = ['const now = Date.now();', 'for (const [key, until] of this.windows) if (until < now) this.windows.delete(key);'];
const deleteRows = ["await db.query('DELETE FROM sessions WHERE expires_at < now()');", 'this.windows.clear();'];

/** A session store keeping its entries in `this.store`, built as `created`, pruned by a timer. */
const store = (imports: string[], created: string) =>
  lines(
    ...imports,
    'export class SessionStore {',
    '  private store: Cache;',
    '  constructor(ttl: number) {',
    `    this.store = ${created};`,
    '    setInterval(() => {',
    '      this.store.purgeStale();',
    "      log('pruned', this.store.size);",
    '    }, 60_000);',
    '  }',
    '}',
  );
const LRU_IMPORTS = ["import { LRUCache } from 'lru-cache';", "import createDebug from 'debug';", "const log = createDebug('sessions');"];

/** A class named `name` that renews a row on a timer. */
const renewer = (name: string) =>
  lines(
    `export class ${name} {`,
    '  private timer: NodeJS.Timeout | undefined;',
    '  constructor(private readonly rows: { updateOne(filter: object, change: object): Promise<unknown> }, private readonly id: string) {}',
    '  start(): void {',
    '    this.timer = setInterval(() => {',
    '      void this.renew();',
    '    }, 10_000);',
    '  }',
    '  async renew(): Promise<void> {',
    '    await this.rows.updateOne({ _id: this.id }, { $set: { expiresAt: new Date(Date.now() + 30_000) } });',
    '  }',
    '}',
  );

/** A function that starts a `later.setInterval` whose callback runs `statement`. */
const laterClock = (imports: string[], statement: string) =>
  lines(
    "import later from '@breejs/later';",
    ...imports,
    'export function startDigest(seen: Set<string>): void {',
    '  later.setInterval(async () => {',
    `    ${statement}`,
    "  }, later.parse.cron('0 8 * * *'));",
    '}',
  );

/** The guard statement for `job` (the file's job names are `file-<line>`), indented by `indent`. */
const guard = (job: string, period: string, indent: string) => `${indent}if (!(await claimPeriod('market:${job}', ${period}))) return;`;

/**
 * An invalid case reported at `line`/`column` whose one suggestion imports the guard before line
 * `importAt` (0-based), makes the timer's callback async (unless the guard goes `inMethod`) and puts `guard` before line `guardAt`.
 */
const reported = (
  code: string,
  at: { line: number; column: number; importAt: number; guardAt: number; guard: string; inMethod?: boolean },
) => {
  // The guard goes in the timer's callback, made async; or first in an async method the timer calls.
  const out = (at.inMethod ? code : code.replace('setInterval(() => {', 'setInterval(async () => {')).split('\n');
  out.splice(at.guardAt, 0, at.guard);
  out.splice(at.importAt, 0, IMPORT);
  return {
    settings,
    code,
    errors: [
      {
        messageId: 'unguardedSchedule' as const,
        line: at.line,
        column: at.column,
        suggestions: [{ messageId: 'addClaimPeriod' as const, output: lines(...out) }],
      },
    ],
  };
};

ruleTester.run('no-unguarded-schedule: work that keeps this process memory', noUnguardedSchedule, {
  valid: [
    // a declared job reading a list into this process's cache through imported functions (`set…Cache`)
    {
      settings,
      code: lines(
        "import { CronJob } from 'cron';",
        "import { RankingService } from './ranking';",
        "const job = new CronJob('*/1 * * * *', async () => {",
        '  const rows = await RankingService.fetchRanking();',
        '  RankingService.setRankingCache(rows);',
        '});',
        'job.start();',
      ),
    },
    // the singleton's write-named method only prunes its own Map
    { settings, code: limiter(...pruneWindows) },
    // a field only ever given an in-memory cache, and a `debug` logger made by the module's export
    { settings, code: store(LRU_IMPORTS, 'new LRUCache({ ttl, max: 10_000 })') },
    // a module `const` holding a cache
    {
      settings,
      code: lines(
        "import { LRUCache } from 'lru-cache';",
        'const recent = new LRUCache<string, number>({ max: 500, ttl: 60_000 });',
        'setInterval(() => {',
        '  recent.purgeStale();',
        '}, 30_000);',
      ),
    },
    // a lease renewing itself keeps the guard, it is not guarded work
    { settings, code: renewer('CompactionLease') },
    { settings, code: renewer('SchedulerLock') },
    // later's clock clearing what this process has seen
    { settings, code: laterClock([], 'seen.clear();') },
  ],
  invalid: [
    // the singleton's method deletes rows
    reported(limiter(...deleteRows), { line: 10, column: 13, importAt: 1, guardAt: 10, guard: guard('file-10', '60_000', '  ') }),
    // a singleton of a class defined elsewhere: its method is not known to stay here
    reported(
      lines(
        "import { RateLimiter } from './rate-limiter';",
        'export const limiter = new RateLimiter();',
        'setInterval(() => {',
        '  limiter.cleanup();',
        '}, 60_000);',
      ),
      { line: 3, column: 13, importAt: 1, guardAt: 3, guard: guard('file-3', '60_000', '  ') },
    ),
    // the field holds a store client, not a cache
    reported(
      store(
        ["import { RedisStore } from './redis-store';", "import createDebug from 'debug';", "const log = createDebug('sessions');"],
        'new RedisStore({ ttl })',
      ),
      { line: 8, column: 17, importAt: 2, guardAt: 8, guard: guard('file-8', '60_000', '      ') },
    ),
    // `renew` of a class that is not a lease or a lock writes a row like any other method: the guard goes first in `renew`
    reported(renewer('JobLedger'), {
      line: 5,
      column: 30,
      importAt: 0,
      guardAt: 9,
      guard: guard('renew', '10_000', '    '),
      inMethod: true,
    }),
    // later's clock sending a digest: a declared job on every replica (the parsed schedule gives no period to suggest)
    {
      settings,
      code: laterClock(["import { reports } from './reports';"], 'await reports.sendDigest();'),
      errors: [{ messageId: 'unguardedSchedule', line: 4, column: 21 }],
    },
  ],
});
