// no-unguarded-schedule on a job started only by an exported function of its module: quiet when
// every call of that function runs under a leader lock, a lock taken before it, or a guard
// wrapper, or when a job built stopped has no caller of its starter in reach; reported when one call
// does not, when the job starts as it is built, or when the function or the job is handed to other code. The callers here are in the
// same module; the file sits in a fixture project whose other modules never name these functions
// (test/rules/projects-schedule.test.ts has the callers in other modules). The project is copied
// out of this repository first: under its `test/` folder every file is test code, which the rule
// leaves alone.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');
const project = mkdtempSync(join(tmpdir(), 'started-by-'));
cpSync(fileURLToPath(new URL('./projects/schedule-started-by-leader', import.meta.url)), project, { recursive: true });
const filename = join(project, 'src/carts.ts');
afterAll(() => rmSync(project, { recursive: true, force: true }));
const settings = { 'replica-guard': { service: 'shop' } };

/** A cart sweep built stopped (or started at once with `startAtOnce`) and started by `startCartJobs()`, then `callers`. */
const carts = (callers: string[], { startAtOnce = false, extra = [] as string[] } = {}) =>
  lines(
    "import { CronJob } from 'cron';",
    "import { pool } from './db';",
    '',
    `const sweep = new CronJob('*/10 * * * *', purgeStaleCarts, null, ${startAtOnce});`,
    ...extra,
    '',
    'export function startCartJobs(): void {',
    '  sweep.start();',
    '}',
    '',
    'async function purgeStaleCarts(): Promise<void> {',
    "  await pool.query('DELETE FROM carts WHERE updated_at < now()');",
    '}',
    '',
    ...callers,
  );

const GUARDED = "  if (!(await claimPeriod('shop:purge-stale-carts', { cron: '*/10 * * * *' }))) return;";
/** The report at the cron job (line 4), with the suggestion that guards purgeStaleCarts. */
const reported = (code: string) => {
  const out = code.split('\n');
  out.splice(out.indexOf('async function purgeStaleCarts(): Promise<void> {') + 1, 0, GUARDED);
  // The import goes after the module's last import.
  out.splice(2, 0, "import { claimPeriod } from 'replica-guard';");
  return [
    {
      messageId: 'unguardedSchedule' as const,
      line: 4,
      column: 43,
      suggestions: [{ messageId: 'addClaimPeriod' as const, output: lines(...out) }],
    },
  ];
};
/** The caller that takes a lock first (`acquire` returns once the lock is held), then starts the jobs. */
const AFTER_ACQUIRE = [
  'export async function lead(mutex: { acquire(): Promise<void> }): Promise<void> {',
  '  await mutex.acquire();',
  '  startCartJobs();',
  '}',
];
/** The job set up inside the exported function itself, started as it is built. */
const STARTED_INSIDE = lines(
  "import { CronJob } from 'cron';",
  "import { pool } from './db';",
  'export function startCartJobs(): void {',
  "  new CronJob('*/10 * * * *', purgeStaleCarts, null, true);",
  '}',
  'async function purgeStaleCarts(): Promise<void> {',
  "  await pool.query('DELETE FROM carts WHERE updated_at < now()');",
  '}',
);
const invalid = (code: string) => ({ code, filename, settings, errors: reported(code) });

ruleTester.run('no-unguarded-schedule (started by an exported function)', noUnguardedSchedule, {
  valid: [
    // A lock taken before the start: `acquire` returns once it is held.
    carts(AFTER_ACQUIRE),
    // The answer of a session advisory try-lock, read from the rows.
    carts([
      'export async function campaign(client: { query(sql: string): Promise<{ rows: Array<{ ok: boolean }> }> }): Promise<void> {',
      "  const { rows } = await client.query('SELECT pg_try_advisory_lock(7) AS ok');",
      '  if (rows[0].ok) startCartJobs();',
      '}',
    ]),
    // A blocking session advisory lock, then the start.
    carts([
      'export async function campaign(client: { query(sql: string): Promise<unknown> }): Promise<void> {',
      "  await client.query('SELECT pg_advisory_lock(7)');",
      '  startCartJobs();',
      '}',
    ]),
    // Inside replica-guard's lease wrapper.
    carts([
      "import { runExclusive } from 'replica-guard';",
      'export async function lead(): Promise<void> {',
      "  await runExclusive('shop:carts-leader', 30_000, async () => startCartJobs());",
      '}',
    ]),
    // Handed to a leader-election event, and to replica-guard's lease wrapper.
    carts([
      'export function follow(elector: { on(event: string, fn: () => void): void }): void {',
      "  elector.on('elected', startCartJobs);",
      '}',
    ]),
    carts([
      "import { runExclusive } from 'replica-guard';",
      'export async function lead(): Promise<void> {',
      "  await runExclusive('shop:carts-leader', 30_000, startCartJobs);",
      '}',
    ]),
    // A leader flag set by the election, in the same module.
    carts([
      'let isLeader = false;',
      'export function onElection(won: boolean): void {',
      '  isLeader = won;',
      '  if (isLeader) startCartJobs();',
      '}',
    ]),
    // Built stopped, and nothing in reach calls its starter: where it is started (out of sight) decides.
    carts([]),
  ].map((code) => ({ code, filename, settings })),
  invalid: [
    // Started at module load as well: every replica.
    invalid(carts([...AFTER_ACQUIRE, 'startCartJobs();'])),
    // A try-lock whose answer is never read.
    invalid(
      carts([
        'export async function lead(locks: { tryAcquire(key: string): Promise<boolean> }): Promise<void> {',
        "  const won = await locks.tryAcquire('leader');",
        '  startCartJobs();',
        '}',
      ]),
    ),
    // Set up inside the exported function itself, nothing calling it: a job built to start, judged as written.
    {
      code: STARTED_INSIDE,
      filename,
      settings,
      errors: [
        {
          messageId: 'unguardedSchedule' as const,
          line: 4,
          column: 31,
          suggestions: [
            {
              messageId: 'addClaimPeriod' as const,
              output: STARTED_INSIDE.replace("from './db';", "from './db';\nimport { claimPeriod } from 'replica-guard';").replace(
                'async function purgeStaleCarts(): Promise<void> {',
                `async function purgeStaleCarts(): Promise<void> {\n${GUARDED}`,
              ),
            },
          ],
        },
      ],
    },
    // Built started: the start method changes nothing.
    invalid(carts(AFTER_ACQUIRE, { startAtOnce: true })),
    // The starter handed to other code.
    invalid(carts(["process.once('SIGUSR2', startCartJobs);"])),
    // The job itself handed to other code, which may start it.
    invalid(
      carts(AFTER_ACQUIRE, {
        extra: ['export const jobs = [sweep];'],
      }),
    ),
  ],
});
