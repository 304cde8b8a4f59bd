// The codemod acts on what lint reports, read from the user's own ESLint configuration: rules it
// turns off, files it ignores, `eslint-disable` comments, the settings it gives the rules (the
// service name, in-house guards). A file lint calls clean is never changed.
import { describe, expect, test } from 'vitest';
import { read, repo, run } from './cli-harness.js';

// The plugin as a config loads it (its rules stubbed: the config is read, never linted with here).
const CONFIG = `const rule = { meta: { schema: false }, create: () => ({}) };
const plugin = {
  meta: { name: 'replica-guard/eslint-plugin' },
  rules: { 'no-unguarded-schedule': rule, 'no-session-advisory-lock': rule },
};
export default [
  { ignores: ['src/generated/**'] },
  {
    files: ['**/*.ts'],
    plugins: { rg: plugin },
    rules: { 'rg/no-unguarded-schedule': 'error' },
    settings: { 'replica-guard': { service: 'from-config', guards: ['withLock'] } },
  },
  { files: ['src/legacy/**'], rules: { 'rg/no-unguarded-schedule': 'off' } },
];
`;

const job = (prefix = ''): string => `${prefix}export async function sweep() {
  await sessions.purgeExpired();
}

setInterval(sweep, 60_000);
`;

describe('the user ESLint configuration decides what the codemod changes', { timeout: 180_000 }, () => {
  test('rules off, ignored files, disable comments and guard settings are honoured; the service comes from settings', () => {
    // Lint reports at the schedule: that is where the comment goes.
    const disabledLine = job().replace('setInterval', '// eslint-disable-next-line rg/no-unguarded-schedule\nsetInterval');
    const wrapped = `export async function sweep() {\n  await withLock(async () => {\n    await sessions.purgeExpired();\n  });\n}\n\nsetInterval(sweep, 60_000);\n`;
    const files = {
      'eslint.config.js': CONFIG,
      'src/jobs.ts': job(),
      'src/legacy/jobs.ts': job(),
      'src/generated/jobs.ts': job(),
      'src/disabled-line.ts': disabledLine,
      'src/disabled-file.ts': job('/* eslint-disable rg/no-unguarded-schedule */\n'),
      'src/wrapped.ts': wrapped,
    };
    const dir = repo(files);
    const { status, stdout } = run(dir, '--json', '--transform', 'guard-schedules');
    expect(status).toBe(0);
    const report = JSON.parse(stdout) as {
      leaseKeys: Array<{ key: string; file: string }>;
      skipped: Array<{ file: string; reason: string }>;
    };
    expect(report.leaseKeys).toEqual([{ key: 'from-config:sweep', file: 'src/jobs.ts', line: 4 }]);
    expect(read(dir, 'src/jobs.ts')).toContain("claimPeriod('from-config:sweep', 60_000)");
    for (const path of ['src/legacy/jobs.ts', 'src/generated/jobs.ts', 'src/disabled-line.ts', 'src/disabled-file.ts', 'src/wrapped.ts'])
      expect(read(dir, path), path).toBe(files[path as keyof typeof files]);
    expect(report.skipped).toContainEqual({
      file: 'src/generated/jobs.ts',
      reason: expect.stringContaining('ignored by the ESLint configuration') as string,
    });
  });

  test('--check passes on code lint calls clean', () => {
    const dir = repo({ 'eslint.config.js': CONFIG, 'src/legacy/jobs.ts': job() });
    expect(run(dir, '--check').status).toBe(0);
  });

  test('with no configuration every rule runs with its defaults', () => {
    const dir = repo({ 'src/jobs.ts': job() });
    run(dir);
    expect(read(dir, 'src/jobs.ts')).toContain("claimPeriod('billing:sweep', 60_000)");
  });
});
