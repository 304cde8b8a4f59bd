// no-unguarded-schedule on work that is harmless at N replicas though a write-like name or an
// unknown call made it look shared: a stats job that only counts rows (through a query builder)
// and logs; a tick whose same-class method takes an election or lease first and leaves when it
// lost; an in-process cache imported under another name purging itself; a collector reading its
// HTTP agent's status into metrics. Each is quiet; its twin that writes through the builder,
// gates on a call that is no lease, takes the lease after the work or never tests it, purges a
// project store, or posts the numbers out is reported.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'market' } };
const IMPORT = "import { claimPeriod } from 'replica-guard';";
/** An invalid case reported at `line`/`column` whose one suggestion gives `output`. */
const reportedWith = (code: string, line: number, column: number, output: string) => ({
  settings,
  code,
  errors: [{ messageId: 'unguardedSchedule' as const, line, column, suggestions: [{ messageId: 'addClaimPeriod' as const, output }] }],
});

/** A stats reporter on `schedule` (a statement of `start()`), whose `report` counts with `active` and logs. */
const statsJob = (imports: string[], schedule: string, active: string) =>
  lines(
    ...imports,
    "import { logger } from './logger';",
    'export class StatsReporter {',
    '  constructor(private readonly db: DataSource) {}',
    '  start() {',
    `    ${schedule}`,
    '  }',
    '  private async report() {',
    '    const em = this.db.manager;',
    '    const accounts = await em.count(Account);',
    `    const active = await em.createQueryBuilder()${active};`,
    "    logger.info('stats', { accounts, active });",
    '  }',
    '}',
  );
const CRON = ["import cron from 'node-cron';"];
const cronTick = "cron.schedule('0 * * * *', () => this.report());";
const timerTick = 'setInterval(() => this.report(), 3_600_000);';
const countActive = ".from(Account, 'a').where('a.last_seen > now()').orderBy('a.id').getCount()";
const markStale = ".update(Account).set({ stale: true }).where('a.last_seen < now()').execute()";
/** A stats job that writes, reported at `line`/`column`: the suggestion puts the guard first in `report` (line 8 after `imports`). */
const statsReported = (imports: string[], schedule: string, line: number, column: number, period: string) => {
  const code = statsJob(imports, schedule, markStale);
  const out = code.split('\n');
  out.splice(imports.length + 7, 0, `    if (!(await claimPeriod('market:report', ${period}))) return;`);
  out.splice(imports.length + 1, 0, IMPORT);
  return reportedWith(code, line, column, lines(...out));
};

/** A janitor whose tick calls `purgeOldExclusively`, which begins with `gate` (statements) before purging. */
const janitor = (...gate: string[]) =>
  lines(
    'export class Janitor {',
    '  private timer?: NodeJS.Timeout;',
    '  constructor(private readonly elections: ElectionStore, private readonly db: Db) {}',
    '  start() {',
    '    this.timer = setInterval(() => {',
    '      this.purgeOldExclusively().catch((e) => console.warn(e));',
    '    }, 60_000);',
    '  }',
    '  async purgeOldExclusively(): Promise<boolean> {',
    ...gate.map((statement) => `    ${statement}`),
    '    await this.purgeOld();',
    '    return true;',
    '  }',
    '  async purgeOld() {',
    '    await this.db.deleteMany({ createdAt: { $lt: new Date(Date.now() - 86_400_000) } });',
    '  }',
    '}',
  );
const electionGate = [
  "const won = await this.elections.getElection('purge-old', 30_000);",
  'if (!won) {',
  "  console.info('lost');",
  '  return false;',
  '}',
];
/** The janitor reported at its tick; the suggestion makes the tick async and claims the period first. */
const janitorReported = (code: string) => {
  const out = code.replace('setInterval(() => {', 'setInterval(async () => {').split('\n');
  out.splice(5, 0, "      if (!(await claimPeriod('market:file-5', 60_000))) return;");
  out.unshift(IMPORT);
  return reportedWith(code, 5, 30, lines(...out));
};

/** A cache whose entries are a `Store` imported from `module`, purged by a timer. */
const cache = (module: string) =>
  lines(
    `import { LRUCache as Store } from '${module}';`,
    'export class Cache {',
    '  private readonly entries: Store<string, string>;',
    '  private readonly timer: NodeJS.Timeout;',
    '  constructor(ms: number) {',
    '    this.entries = new Store<string, string>({ max: 100 });',
    '    this.timer = setInterval(() => {',
    '      this.entries.purgeStale();',
    '    }, ms);',
    '  }',
    '}',
  );

/** A collector of an HTTP agent's sockets into metrics instruments; `send` runs after they are recorded. */
const poolWatcher = (...send: string[]) =>
  lines(
    "import { poolBusy, poolFree } from './monitoring/metrics';",
    'function updatePoolMetrics(name: string, stats: { busy: number; free: number }) {',
    '  poolBusy.record(stats.busy, { name });',
    '  poolFree.record(stats.free, { name });',
    ...send.map((statement) => `  ${statement}`),
    '}',
    'function countBusy(status: AgentStatus) {',
    '  let busy = 0;',
    '  for (const host in status.sockets) {',
    '    if (status.sockets.hasOwnProperty(host)) busy += status.sockets[host];',
    '  }',
    '  return { busy, free: status.free };',
    '}',
    'export function watchPool(name: string, agent: Agent) {',
    '  return setInterval(() => {',
    '    const status = agent.getCurrentStatus();',
    '    updatePoolMetrics(name, countBusy(status));',
    '  }, 5000);',
    '}',
  );

ruleTester.run('no-unguarded-schedule: reads, leases one call down, caches and collectors', noUnguardedSchedule, {
  valid: [
    // counting rows (a count, a query builder that reads) and logging: every replica reading harms nothing
    { settings, code: statsJob(CRON, cronTick, countActive) },
    { settings, code: statsJob([], timerTick, countActive) },
    // the tick's method takes an election first and leaves when another server won it
    { settings, code: janitor(...electionGate) },
    // the same with a lease tested in the `if` itself
    { settings, code: janitor("if (!(await this.leases.take('purge-old', 30_000))) return false;") },
    // an in-process cache class imported under another name purges this process's entries
    { settings, code: cache('lru-cache') },
    // an HTTP agent's status read into this process's metrics
    { settings, code: poolWatcher() },
  ],
  invalid: [
    // the query builder updates rows: a declared job and a bare timer are both reported
    statsReported(CRON, cronTick, 6, 32, "{ cron: '0 * * * *' }"),
    statsReported([], timerTick, 5, 17, '3_600_000'),
    // the method gates on a count, not a lease
    janitorReported(janitor('const won = await this.db.countOld();', 'if (!won) return false;')),
    // the lease is taken after the work has run
    janitorReported(janitor('await this.purgeOld();', ...electionGate)),
    // the lease is asked for, but its answer is never tested
    janitorReported(janitor("await this.elections.getElection('purge-old', 30_000);")),
    // a store class of the project: its purge is not known to stay in this process
    reportedWith(
      cache('./store'),
      7,
      30,
      lines(
        ...cache('./store')
          .replace('setInterval(() => {', 'setInterval(async () => {')
          .replace(
            '      this.entries.purgeStale();',
            "      if (!(await claimPeriod('market:file-7', ms))) return;\n      this.entries.purgeStale();",
          )
          .split('\n')
          .flatMap((line, i) => (i === 0 ? [line, IMPORT] : [line])),
      ),
    ),
    // the collector also posts the numbers to a shared service (one schedule per pool name: no suggestion)
    {
      settings,
      code: poolWatcher("void fetch('https://stats.example.com', { method: 'POST', body: JSON.stringify(stats) });"),
      errors: [{ messageId: 'unguardedSchedule', line: 15, column: 22 }],
    },
  ],
});
