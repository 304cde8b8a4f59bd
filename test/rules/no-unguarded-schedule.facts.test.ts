// The facts contract the guard-schedules codemod reads, and the guard statement both the
// suggestion and the codemod insert.
import { Linter } from 'eslint';
import tsParser from '@typescript-eslint/parser';
import { describe, expect, test } from 'vitest';
import type { Finding } from '../../rules/utils/create-rule.js';
import { noUnguardedSchedule, type UnguardedScheduleFacts } from '../../rules/no-unguarded-schedule.js';
import { guardStatementText, periodArgumentText } from '../../rules/rewrites/guard-statement.js';
import { jobName } from '../../rules/rewrites/job-name.js';

function findings(code: string, filename = 'src/jobs.ts'): Finding<string, UnguardedScheduleFacts>[] {
  const out: Finding<string, UnguardedScheduleFacts>[] = [];
  const probe = {
    meta: noUnguardedSchedule.meta,
    create: (context: never) => noUnguardedSchedule.detect(context, (f) => out.push(f)),
  };
  const linter = new Linter({ configType: 'flat' });
  const messages = linter.verify(
    code,
    [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tsParser as never },
        plugins: { probe: { rules: { detect: probe as never } } },
        rules: { 'probe/detect': 'error' },
      },
    ],
    filename,
  );
  expect(messages.filter((m) => m.fatal)).toEqual([]);
  return out;
}

describe('facts', () => {
  test('a named interval function: scheduler id, the definition, kebab job name, interval text as written', () => {
    const [f, ...rest] = findings('setInterval(sweepRenewals, 5 * MINUTE);\nasync function sweepRenewals() { await db.query("x"); }');
    expect(rest).toEqual([]);
    expect(f!.facts.scheduler).toBe('setInterval');
    expect(f!.facts.workFunction?.type).toBe('FunctionDeclaration');
    expect(f!.facts.jobName).toBe('sweep-renewals');
    expect(f!.facts.period).toEqual({ kind: 'interval', text: '5 * MINUTE' });
    expect(f!.facts.decorator).toBeUndefined();
    expect(f!.facts.exit).toBe('return');
  });

  test('a NestJS @Cron method: the decorator, the method, the cron expression and the tz option as written', () => {
    const [f] = findings(
      "import { Cron } from '@nestjs/schedule';\nclass A {\n  @Cron('0 * * * *', { timeZone: TZ })\n  async closeInvoices() { await this.repo.close(); }\n}",
    );
    expect(f!.facts.scheduler).toBe('nestjs.Cron');
    expect(f!.facts.decorator?.type).toBe('Decorator');
    expect(f!.facts.workFunction?.type).toBe('FunctionExpression');
    expect(f!.facts.member?.type).toBe('MethodDefinition');
    expect(f!.facts.jobName).toBe('close-invoices');
    expect(f!.facts.period).toEqual({ kind: 'cron', expression: '0 * * * *', tzText: 'TZ' });
  });

  test('work defined in another file: no work function, the name still gives the job', () => {
    const [f] = findings("import cron from 'node-cron';\nimport { sendDigest } from './digest';\ncron.schedule('0 6 * * *', sendDigest);");
    expect(f!.facts.scheduler).toBe('node-cron.schedule');
    expect(f!.facts.workFunction).toBeUndefined();
    expect(f!.facts.jobName).toBe('send-digest');
    expect(f!.facts.period).toEqual({ kind: 'cron', expression: '0 6 * * *' });
  });

  test('a for-await loop: loop body, continue, no work function', () => {
    const [f] = findings("import { setInterval } from 'node:timers/promises';\nfor await (const _ of setInterval(1000)) { await tick(); }");
    expect(f!.facts.scheduler).toBe('timers/promises.setInterval');
    expect(f!.facts.workFunction).toBeUndefined();
    expect(f!.facts.loopBody?.type).toBe('BlockStatement');
    expect(f!.facts.exit).toBe('continue');
    expect(f!.facts.jobName).toBeUndefined();
    expect(f!.facts.fallbackJobName).toBe('jobs-2');
  });
});

describe('guardStatementText', () => {
  test('interval and cron periods, tz passed through, quotes escaped', () => {
    expect(guardStatementText({ jobName: 'sweep', period: { kind: 'interval', text: '60_000' } }, 'billing')).toBe(
      "if (!(await claimPeriod('billing:sweep', 60_000))) return;",
    );
    expect(guardStatementText({ jobName: 'close', period: { kind: 'cron', expression: '0 * * * *', tzText: "'UTC'" } }, 'billing')).toBe(
      "if (!(await claimPeriod('billing:close', { cron: '0 * * * *', tz: 'UTC' }))) return;",
    );
    expect(
      guardStatementText({ jobName: "o'clock", period: { kind: 'interval', text: '1' } }, 'svc', {
        callee: 'rg.claimPeriod',
        exit: 'continue',
      }),
    ).toBe("if (!(await rg.claimPeriod('svc:o\\'clock', 1))) continue;");
  });

  test('no period or no job name: no statement (a human picks them)', () => {
    expect(guardStatementText({ jobName: 'x', period: undefined }, 'svc')).toBeUndefined();
    expect(guardStatementText({ jobName: undefined, period: { kind: 'interval', text: '1' } }, 'svc')).toBeUndefined();
    expect(guardStatementText({ jobName: undefined, period: { kind: 'interval', text: '1' } }, 'svc', { fallbackJobName: 'jobs-3' })).toBe(
      "if (!(await claimPeriod('svc:jobs-3', 1))) return;",
    );
    expect(periodArgumentText(undefined)).toBeUndefined();
  });

  test('job names are kebab-case', () => {
    expect(jobName('sweepRenewals')).toBe('sweep-renewals');
    expect(jobName('#sendHTTPReport')).toBe('send-http-report');
    expect(jobName('nightly_backup')).toBe('nightly-backup');
    expect(jobName('__')).toBeUndefined();
  });

  test('an endless poll loop: the loop body, the pause as the period, the job named for its function, and manual (a `continue` would skip the pause)', () => {
    const [f, ...rest] = findings(
      [
        "import { setTimeout as sleep } from 'node:timers/promises';",
        'export async function pollFeeds() {',
        '  while (true) {',
        '    await db.insertItems(await fetchFeeds());',
        '    await sleep(POLL_MS);',
        '  }',
        '}',
      ].join('\n'),
    );
    expect(rest).toEqual([]);
    expect(f!.facts.scheduler).toBe('poll-loop');
    expect(f!.facts.loopBody?.loc.start.line).toBe(3);
    expect(f!.facts.workFunction).toBeUndefined();
    expect(f!.facts.jobName).toBe('poll-feeds');
    expect(f!.facts.period).toEqual({ kind: 'interval', text: 'POLL_MS' });
    expect(f!.facts.manual).toMatch(/^a poll loop: a guard's `continue` would skip the loop's pause/);
  });
});

describe('one schedule in the code, one job per factory call or loop pass: manual, so no fixed key is shared', () => {
  const once = (code: string[]) => {
    const [f, ...rest] = findings(code.join('\n'));
    expect(rest).toEqual([]);
    return f!.facts.manual;
  };

  test('a factory whose work reads its parameter', () => {
    expect(
      once([
        'export function startCachePruner(kind: string, everyMs: number) {',
        '  setInterval(async () => {',
        "    await db.query('DELETE FROM cache_entries WHERE kind = $1 AND expires_at < now()', [kind]);",
        '  }, everyMs);',
        '}',
      ]),
    ).toMatch(/^this schedule is set up once per `kind` \(its work reads it\)/);
  });

  test('a loop over tenants whose work reads the loop variable, and a forEach callback parameter', () => {
    expect(
      once([
        "import cron from 'node-cron';",
        'for (const tenant of tenants) {',
        "  cron.schedule('0 * * * *', async () => {",
        '    await billing.closeInvoices(tenant);',
        '  });',
        '}',
      ]),
    ).toMatch(/once per `tenant`/);
    expect(
      once([
        "import cron from 'node-cron';",
        'queues.forEach((queue) => {',
        "  cron.schedule('*/5 * * * *', () => jobs.requeueStale(queue));",
        '});',
      ]),
    ).toMatch(/once per `queue`/);
  });

  test('members of a parameter only (a dependency, a setting), the interval alone, or work defined outside: a key of its own', () => {
    expect(
      once([
        'export function startJobs(app: App, config: { everyMs: number }) {',
        '  setInterval(async () => {',
        '    await app.db.sessions.deleteExpired();',
        '  }, config.everyMs);',
        '}',
      ]),
    ).toBeUndefined();
    // The interval alone is one job, not one per call; but a parameter read as the period is not seen
    // by a work function defined outside the arming function, so the guard cannot be written there.
    expect(
      once([
        'async function sweepSessions() {',
        '  await db.sessions.deleteExpired();',
        '}',
        'export function start(everyMs: number) {',
        '  setInterval(sweepSessions, everyMs);',
        '}',
      ]),
    ).toBe(
      'the period reads `everyMs`, which the work function does not see: begin the work with a claimPeriod guard whose period it can read',
    );
    expect(
      once([
        'const EVERY_MS = 60_000;',
        'async function sweepSessions() {',
        '  await db.sessions.deleteExpired();',
        '}',
        'export function start() {',
        '  setInterval(sweepSessions, EVERY_MS);',
        '}',
      ]),
    ).toBeUndefined();
    expect(
      once([
        "import * as timers from 'node:timers/promises';",
        'for await (const now of timers.setInterval(60_000, Date.now())) {',
        '  await reports.close(now);',
        '}',
      ]),
    ).toBeUndefined();
  });
});
