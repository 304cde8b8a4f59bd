// no-unguarded-schedule judged as an operator would: declared jobs are business work unless shown
// otherwise; bare timers are reported only when their work reaches a shared effect; per-replica
// intent and coordination are read from knowledge; deployment-flag gates keep their own message;
// reports sit at the schedule.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'billing' } };
const IMPORT = "import { claimPeriod } from 'replica-guard';";
const guard = (job: string, period: string) => `if (!(await claimPeriod('billing:${job}', ${period}))) return;`;
/** A task's heartbeat timer, started after `const <answer> = await this.<call>(task); if (!<answer>) return;`. */
const heartbeatAfter = (method: string, answer: string, call: string): string[] => [
  'class TaskWorker {',
  `  async ${method}(task) {`,
  `    const ${answer} = await this.${call}(task);`,
  `    if (!${answer}) return;`,
  '    const beat = () => {',
  '      this.timer = setTimeout(async () => {',
  "        await this.db.query('UPDATE tasks SET heartbeat_at = now() WHERE id = $1', [task.id]);",
  '        beat();',
  '      }, 10_000);',
  '    };',
  '    beat();',
  '  }',
  '}',
];
/** A class whose init() starts `start()` through a bound alias (`begin`) with `call`; start() holds `timer`. */
const pruning = (call: string, timer: string[]): string =>
  lines(
    'class Pruning {',
    '  init() {',
    '    const begin = this.start.bind(this);',
    `    ${call}`,
    '  }',
    '  start() {',
    ...timer,
    '  }',
    '}',
  );
/** A purge started under `condition`, reported with `messageId` at the work's name, the guard suggested first in it. */
const purgeUnder = (condition: string, messageId: 'deploymentFlagGate' | 'unguardedSchedule') => {
  const code = (guardLine: string) =>
    lines(
      `if (${condition}) {`,
      '  setInterval(purgeExpired, 30_000);',
      '}',
      `async function purgeExpired() { ${guardLine}await links.deleteExpired(); }`,
    );
  return {
    settings,
    code: code(''),
    errors: [
      {
        messageId,
        line: 2,
        column: 15,
        endColumn: 27,
        suggestions: [{ messageId: 'addClaimPeriod' as const, output: `${IMPORT}\n${code(`${guard('purge-expired', '30_000')} `)}` }],
      },
    ],
  };
};
const PRUNE_TIMER = '    this.timer = setInterval(async () => await this.executions.softDeleteExpired(), 60_000);';
/** queue() sets `setTimeout(invoke)`; invoke() does the work, then `callBack` (which may call queue() again). */
const twoMethodLoop = (...callBack: string[]): string =>
  lines(
    'class Job {',
    '  queue() {',
    '    this.timeout = setTimeout(this.invoke.bind(this), 60_000);',
    '  }',
    '  async invoke() {',
    '    await db.rebuildTree();',
    ...callBack,
    '  }',
    '}',
  );
/** A class declaring `clients;` whose constructor sets `this.clients = <clients>`, and a timer writing one row per client. */
const socketsWith = (parameters: string, clients: string, guardLine?: string): string =>
  lines(
    ...(guardLine ? [IMPORT] : []),
    'class Sockets {',
    '  clients;',
    `  constructor(${parameters}) {`,
    `    this.clients = ${clients};`,
    '  }',
    '  start() {',
    '    setInterval(async () => {',
    ...(guardLine ? [`      ${guardLine}`] : []),
    "      for (const client of this.clients) await this.db.query('UPDATE sessions SET seen_at = now() WHERE id = $1', [client.id]);",
    '    }, 30_000);',
    '  }',
    '}',
  );

ruleTester.run('no-unguarded-schedule (operator)', noUnguardedSchedule, {
  valid: [
    // Started only on the replica that won a claim: the claimed task's heartbeat.
    {
      settings,
      code: lines(...heartbeatAfter('claimAndRun', 'claimed', 'tryClaimTask')),
    },
    // A worker's poll loop takes the next job from a queue: the queue hands each job to one replica.
    {
      settings,
      code: lines(
        'class Poller {',
        '  start() {',
        '    setInterval(async () => {',
        "      const job = await this.jobQueue.next('emails');",
        "      if (job) await this.db.query('UPDATE jobs SET state = $1 WHERE id = $2', ['done', job.id]);",
        '    }, 1000);',
        '  }',
        '}',
      ),
    },
    // A collection the constructor creates is this process's own (its sockets).
    {
      settings,
      code: socketsWith('', 'new Set()'),
    },
    // Per-replica by design: gauges of this instance, a ping on its own connection, telemetry.
    {
      settings,
      code: lines('setInterval(async () => {', '  Stats.gauge(`depth`, await jobs.count());', '}, 5000);'),
    },
    {
      settings,
      code: lines(
        'class Conn {',
        '  start() {',
        '    setInterval(() => { this.ping().catch(() => this.disconnect(true)); }, 30_000);',
        '  }',
        '}',
      ),
    },
    {
      settings,
      code: lines(
        "import { scheduleJob } from 'node-schedule';",
        "import { track } from '@shop/telemetry';",
        "scheduleJob('0 * * * *', () => { track('ALIVE'); });",
      ),
    },
    {
      settings,
      code: lines(
        "import { Cron } from '@nestjs/schedule';",
        'class Beacon {',
        "  @Cron('0 * * * *')",
        '  async hourly() {',
        '    await postUsage(this.http, { machineId: this.machineId });',
        '  }',
        '}',
      ),
    },
    // A bare timer flushing what this process holds in memory.
    {
      settings,
      code: lines('const pending = [];', 'setInterval(async () => {', '  for (const row of pending) await db.insertRow(row);', '}, 1000);'),
    },
    {
      settings,
      code: lines(
        'class Writer {',
        '  start() {',
        '    setInterval(() => this.flushAll(), 1000);',
        '  }',
        '  async flushAll() { await this.client.insertBatch(); }',
        '}',
      ),
    },
    // Coordinated one call away: a lock in a same-file function, a conditional claim, a dedupe key.
    {
      settings,
      code: lines(
        "import cron from 'node-cron';",
        "cron.schedule('0 * * * *', async () => { await run(); });",
        'async function run() {',
        '  const lock = await locks.acquire("trial-mails", 60_000);',
        '  await mailer.sendTrialEndingMails();',
        '}',
      ),
    },
    {
      settings,
      code: lines('setInterval(async () => {', '  if (await store.tryClaimSlot(Date.now())) await sendDigests();', '}, 60_000);'),
    },
    {
      settings,
      code: lines(
        "import cron from 'node-cron';",
        "cron.schedule('* * * * *', async () => {",
        "  await boss.insert(due.map((d) => ({ name: 'send', data: d, singletonKey: d.id })));",
        '});',
      ),
    },
    // Started only on the elected leader (through the caller and a getter).
    {
      settings,
      code: lines(
        'class Pruning {',
        '  init() { if (this.instance.isLeader) this.start(); }',
        '  get enabled() { return this.config.prune && this.instance.isLeader; }',
        '  start() {',
        '    if (!this.enabled) return;',
        '    this.timer = setInterval(async () => await this.softDeleteOld(), 60_000);',
        '  }',
        '  async softDeleteOld() { await this.executions.softDeleteExpired(); }',
        '}',
      ),
    },
    // Started only on the elected leader, through a bound alias of the method that sets the timer.
    {
      settings,
      code: pruning('if (this.instance.isLeader) begin();', [PRUNE_TIMER]),
    },
    // Started only where a module-level early exit let the leader through, statements before it.
    {
      settings,
      code: lines(
        "import { Pool } from 'pg';",
        'const db = new Pool();',
        "if (!process.env.IS_LEADER) throw new Error('not the leader');",
        'const period = 60_000;',
        "setInterval(async () => { await db.query('UPDATE accounts SET swept_at = now()'); }, period);",
      ),
    },
    // The explicit opt-out on a decorated method.
    {
      settings,
      code: lines(
        "import { Interval } from '@nestjs/schedule';",
        "import { PerReplica } from 'replica-guard';",
        'class Sweeper {',
        '  @Interval(10_000)',
        '  @PerReplica()',
        '  async sweep() { await this.repo.deleteStale(); }',
        '}',
      ),
    },
    // A bare timer whose work is unknown: quiet without reportAll; a reconnect loop is its own connection.
    { settings, code: 'setInterval(() => api.refresh(), 1000);' },
    {
      settings,
      code: lines(
        'const connect = async () => {',
        '  try { this.conn = await broker.connect(); } catch { setTimeout(() => connect(), 5000); }',
        '};',
      ),
    },
  ],
  invalid: [
    // An early exit after the schedule does not stop it.
    {
      settings,
      code: lines(
        "import { Pool } from 'pg';",
        'const db = new Pool();',
        "setInterval(async () => { await db.query('UPDATE accounts SET swept_at = now()'); }, 60_000);",
        "if (!process.env.IS_LEADER) throw new Error('not the leader');",
      ),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 3,
          column: 13,
          suggestions: [
            {
              messageId: 'addClaimPeriod',
              output: lines(
                "import { Pool } from 'pg';",
                IMPORT,
                'const db = new Pool();',
                `setInterval(async () => { ${guard('file-3', '60_000')} await db.query('UPDATE accounts SET swept_at = now()'); }, 60_000);`,
                "if (!process.env.IS_LEADER) throw new Error('not the leader');",
              ),
            },
          ],
        },
      ],
    },
    // The same heartbeat without the claim before it.
    {
      settings,
      code: lines(...heartbeatAfter('run', 'loaded', 'loadTask')),
      errors: [{ messageId: 'unguardedSchedule', line: 6, column: 31, suggestions: [] }],
    },
    // `job.nextDate()` is a date, not a job taken from a queue.
    {
      settings,
      code: lines(
        "import { CronJob } from 'cron';",
        "const job = new CronJob('0 * * * *', async () => {",
        "  await db.setObject('cron:hourly', { nextRun: job.nextDate() });",
        '});',
        'job.start();',
      ),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 2,
          column: 38,
          suggestions: [
            {
              messageId: 'addClaimPeriod',
              output: lines(
                "import { CronJob } from 'cron';",
                IMPORT,
                "const job = new CronJob('0 * * * *', async () => {",
                `  ${guard('job', "{ cron: '0 * * * *' }")}`,
                "  await db.setObject('cron:hourly', { nextRun: job.nextDate() });",
                '});',
                'job.start();',
              ),
            },
          ],
        },
      ],
    },
    // A collection the constructor takes from the database is not this process's own.
    {
      settings,
      code: socketsWith('db', "db.collection('clients')"),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 7,
          column: 17,
          suggestions: [
            {
              messageId: 'addClaimPeriod',
              output: socketsWith('db', "db.collection('clients')", guard('file-7', '30_000')),
            },
          ],
        },
      ],
    },
    // A bare timer whose work deletes rows: reported on the work argument.
    {
      settings,
      code: lines(
        'setInterval(purgeExpired, 30_000);',
        'async function purgeExpired() {',
        '  await links.batchRemove({ expired: true });',
        '}',
      ),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 1,
          column: 13,
          endLine: 1,
          endColumn: 25,
          suggestions: [
            {
              messageId: 'addClaimPeriod',
              output: lines(
                IMPORT,
                'setInterval(purgeExpired, 30_000);',
                'async function purgeExpired() {',
                `  ${guard('purge-expired', '30_000')}`,
                '  await links.batchRemove({ expired: true });',
                '}',
              ),
            },
          ],
        },
      ],
    },
    // A deployment flag gate: still reported, with its own message (`JOBS_ENABLED` reads as `jobsEnabled`).
    purgeUnder('process.env.IS_PRIMARY_NODE', 'deploymentFlagGate'),
    purgeUnder("process.env.JOBS_ENABLED === 'true'", 'deploymentFlagGate'),
    // A variable that configures a feature is no role in the deployment: the plain message.
    purgeUnder('process.env.SMTP_HOST && process.env.LINK_TTL_DAYS', 'unguardedSchedule'),
    {
      settings,
      code: lines(
        "import { Cron } from '@nestjs/schedule';",
        'class Jobs {',
        "  @Cron('0 3 * * *')",
        '  async nightly() {',
        '    if (!this.config.isCronNode) return;',
        '    await this.tokens.removeExpired();',
        '  }',
        '}',
      ),
      errors: [
        {
          messageId: 'deploymentFlagGate',
          line: 3,
          column: 3,
          endColumn: 21,
          suggestions: [
            {
              messageId: 'addClaimPeriod',
              output: lines(
                "import { Cron } from '@nestjs/schedule';",
                IMPORT,
                'class Jobs {',
                "  @Cron('0 3 * * *')",
                '  async nightly() {',
                `    ${guard('nightly', "{ cron: '0 3 * * *' }")}`,
                '    if (!this.config.isCronNode) return;',
                '    await this.tokens.removeExpired();',
                '  }',
                '}',
              ),
            },
          ],
        },
      ],
    },
    // croner's module itself as the class, the call spread over lines: reported at `new Cron`.
    {
      settings,
      languageOptions: { sourceType: 'commonjs' } as never,
      code: lines(
        "const Cron = require('croner');",
        'for (const job of jobs) {',
        '  job.handle = new Cron(',
        '    job.pattern,',
        '    { name: job.name },',
        '    job.run,',
        '  );',
        '}',
      ),
      errors: [{ messageId: 'unguardedSchedule', line: 3, column: 16, endLine: 3, endColumn: 24 }],
    },
    // A loop spread over two methods: queue() → setTimeout(invoke) → invoke() → queue().
    {
      settings,
      code: twoMethodLoop('    this.queue();'),
      errors: [{ messageId: 'unguardedSchedule', line: 3, column: 31, endLine: 3, endColumn: 53 }],
    },
    // The same loop where the work calls back the setter through a bound alias.
    {
      settings,
      code: twoMethodLoop('    const again = this.queue.bind(this);', '    again();'),
      errors: [{ messageId: 'unguardedSchedule', line: 3, column: 31, endLine: 3, endColumn: 53 }],
    },
    // Without the leader condition, the bound alias's caller leaves the timer on every replica.
    {
      settings,
      code: pruning('begin();', [PRUNE_TIMER]),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 7,
          column: 30,
          endLine: 7,
          endColumn: 83,
          suggestions: [
            {
              messageId: 'addClaimPeriod',
              output: lines(
                IMPORT,
                pruning('begin();', [
                  '    this.timer = setInterval(async () => {',
                  `      ${guard('file-7', '60_000')}`,
                  '      return await this.executions.softDeleteExpired();',
                  '    }, 60_000);',
                ]),
              ),
            },
          ],
        },
      ],
    },
    // Meteor's timer with a shared write.
    {
      settings,
      code: 'Meteor.setInterval(() => Sessions.removeExpired(), 60_000);',
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 1,
          column: 20,
          endColumn: 50,
          suggestions: [
            {
              messageId: 'addClaimPeriod',
              output: lines(
                IMPORT,
                'Meteor.setInterval(async () => {',
                `  if (!(await claimPeriod('billing:file-1', 60_000))) return;`,
                '  return Sessions.removeExpired();',
                '}, 60_000);',
              ),
            },
          ],
        },
      ],
    },
    // The project's own job runner: the job handed in runs on every replica.
    {
      settings,
      code: lines(
        'export class TaskScheduler {',
        '  every(work, ms, id) {',
        '    setInterval(async () => {',
        '      if (this.running.has(id)) return;',
        '      await work();',
        '    }, ms);',
        '  }',
        '}',
      ),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 3,
          column: 17,
          endLine: 3,
          endColumn: 29,
          // One schedule per job handed in (`id`, `work`): a fixed key would make them share one lease, so no suggestion.
          suggestions: [],
        },
      ],
    },
    // A declared job: an analytics event under one shared id, and a delegate whose name is no evidence.
    {
      settings,
      code: lines(
        "import { Cron } from '@nestjs/schedule';",
        'class Analytics {',
        "  @Cron('0 0 * * 0')",
        '  async weekly() {',
        "    this.client.capture({ distinctId: this.config.get('ANALYTICS_ID'), event: 'instance' });",
        '  }',
        '}',
      ),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 3,
          column: 3,
          endColumn: 21,
          suggestions: [
            {
              messageId: 'addClaimPeriod',
              output: lines(
                "import { Cron } from '@nestjs/schedule';",
                IMPORT,
                'class Analytics {',
                "  @Cron('0 0 * * 0')",
                '  async weekly() {',
                `    ${guard('weekly', "{ cron: '0 0 * * 0' }")}`,
                "    this.client.capture({ distinctId: this.config.get('ANALYTICS_ID'), event: 'instance' });",
                '  }',
                '}',
              ),
            },
          ],
        },
      ],
    },
    {
      settings,
      code: lines("import cron from 'node-cron';", "cron.schedule('*/5 * * * *', () => strategy.executeTask(task));"),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 2,
          column: 30,
          endColumn: 62,
          suggestions: [
            {
              messageId: 'addClaimPeriod',
              output: lines(
                "import cron from 'node-cron';",
                IMPORT,
                "cron.schedule('*/5 * * * *', async () => {",
                `  ${guard('file-2', "{ cron: '*/5 * * * *' }")}`,
                '  return strategy.executeTask(task);',
                '});',
              ),
            },
          ],
        },
      ],
    },
    // A loop that reschedules in `finally`: the guard goes inside the `try`, so a losing replica still reschedules.
    {
      settings,
      code: lines(
        'async function crawl() {',
        '  try {',
        '    await pages.publishNext();',
        '  } finally {',
        '    setTimeout(crawl, 1000);',
        '  }',
        '}',
      ),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 5,
          column: 16,
          endColumn: 21,
          suggestions: [
            {
              messageId: 'addClaimPeriod',
              output: lines(
                IMPORT,
                'async function crawl() {',
                '  try {',
                `    ${guard('crawl', '1000')}`,
                '    await pages.publishNext();',
                '  } finally {',
                '    setTimeout(crawl, 1000);',
                '  }',
                '}',
              ),
            },
          ],
        },
      ],
    },
    // An awaited call reaches outside the process whatever its method is called (`await queue.add(job)`, not a Set's add).
    {
      settings,
      code: lines(
        "import cron from 'node-cron';",
        'async function remind() {',
        "  await reminders.add('remind', {});",
        '}',
        "cron.schedule('15 * * * *', remind);",
      ),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 5,
          column: 29,
          suggestions: [
            {
              messageId: 'addClaimPeriod',
              output: lines(
                "import cron from 'node-cron';",
                IMPORT,
                'async function remind() {',
                `  ${guard('remind', "{ cron: '15 * * * *' }")}`,
                "  await reminders.add('remind', {});",
                '}',
                "cron.schedule('15 * * * *', remind);",
              ),
            },
          ],
        },
      ],
    },
    // reportAll (the strict config): a bare timer whose work is unknown is reported too.
    {
      settings,
      options: [{ reportAll: true }],
      code: 'setInterval(() => api.refresh(), 1000);',
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 1,
          column: 13,
          endColumn: 32,
          suggestions: [
            {
              messageId: 'addClaimPeriod',
              output: lines(IMPORT, 'setInterval(async () => {', `  ${guard('file-1', '1000')}`, '  return api.refresh();', '}, 1000);'),
            },
          ],
        },
      ],
    },
  ],
});
