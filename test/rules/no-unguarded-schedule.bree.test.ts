// no-unguarded-schedule on Bree: `new Bree({ jobs })` then `bree.start()` runs every job file on
// its interval or cron in every replica. Reported at the start (where the schedule is decided),
// naming the jobs, without a suggestion (the work is the job files). Quiet when the start is
// taken only after a lease, on the elected leader, or not in this file at all.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'shop' } };
// Accepted by ESLint at run time; rule-tester's TestLanguageOptions type does not list sourceType.
const script = { sourceType: 'commonjs' } as never;
const reported = (
  code: string,
  line: number,
  column: number,
  work: string,
  messageId: 'unguardedSchedule' | 'deploymentFlagGate' = 'unguardedSchedule',
) => ({
  settings,
  code,
  ...(code.includes('require(') ? { languageOptions: script } : {}),
  errors: [{ messageId, line, column, data: { scheduler: 'bree', guard: 'claimPeriod', work }, suggestions: [] }],
});

/** A worker entry point (CommonJS) starting Bree after `before` (statements of `main`). */
const worker = (...before: string[]) =>
  lines(
    "const Bree = require('bree');",
    "const path = require('path');",
    'const bree = new Bree({',
    "  root: path.join(__dirname, 'jobs'),",
    "  jobs: ['send-receipts', { name: 'expire-carts', cron: '*/10 * * * *' }],",
    '});',
    'async function main(leases) {',
    ...before.map((statement) => `  ${statement}`),
    '  await bree.start();',
    '}',
    'module.exports = { main };',
  );
/** A service class keeping its Bree in a field, started by `start()` under `condition` (none: always). */
const service = (condition?: string) =>
  lines(
    "import Bree from 'bree';",
    'export class JobService {',
    '  constructor(private readonly config: Config) {',
    "    this.bree = new Bree({ jobs: [{ name: 'reindex-products', interval: '5m' }] });",
    '  }',
    '  async start() {',
    condition ? `    if (${condition}) await this.bree.start();` : '    await this.bree.start();',
    '  }',
    '}',
  );

ruleTester.run('no-unguarded-schedule: Bree job files', noUnguardedSchedule, {
  valid: [
    // the start comes only after a lease is won
    { settings, languageOptions: script, code: worker("if (!(await leases.take('bree', 60_000))) return;") },
    // started only on the elected leader, by a condition or by the election event
    { settings, code: service('this.config.isLeader') },
    {
      settings,
      code: lines(
        "import Bree from 'bree';",
        'export function startOnLeader(elector) {',
        "  const bree = new Bree({ jobs: ['send-receipts'] });",
        "  elector.on('elected', () => bree.start());",
        '}',
      ),
    },
    // built here, started elsewhere: the start decides, and it is not in this file
    { settings, code: lines("import Bree from 'bree';", "export const bree = new Bree({ jobs: ['send-receipts'] });") },
    // a local class named Bree is not the scheduler
    {
      settings,
      code: lines('class Bree { start() {} }', "const bree = new Bree({ jobs: ['send-receipts'] });", 'bree.start();'),
    },
  ],
  invalid: [
    // every replica starts every job file
    reported(worker(), 8, 9, 'send-receipts, expire-carts'),
    // a log line before the start is no guard
    reported(worker("console.info('starting jobs');"), 9, 9, 'send-receipts, expire-carts'),
    reported(service(), 7, 11, 'reindex-products'),
    // a deployment flag is no leader election
    reported(service('this.config.jobsEnabled'), 7, 40, 'reindex-products', 'deploymentFlagGate'),
    // built and started in one expression: at its jobs, on the line of the start
    reported(lines("import Bree from 'bree';", "new Bree({ jobs: ['send-receipts'] }).start();"), 2, 18, 'send-receipts'),
  ],
});
