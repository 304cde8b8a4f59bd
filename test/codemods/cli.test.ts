// The `replica-codemod` CLI, run from source (`node --import tsx codemods/engine/cli.ts …`) in temp git
// repositories.
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { transforms } from '../../codemods/registry.js';
import { CLEAN, read, repo, run, scratch, UNGUARDED } from './cli-harness.js';

// Each run starts a Node process that loads ESLint and the TypeScript parser: slow on a busy machine.
describe('replica-codemod', { timeout: 180_000 }, () => {
  test('--dry-run prints a unified diff and writes nothing', () => {
    const dir = repo({ 'src/jobs.ts': UNGUARDED });
    const { status, stdout } = run(dir, '--dry-run');
    expect(status).toBe(0);
    expect(stdout).toContain('--- a/src/jobs.ts');
    expect(stdout).toContain('+++ b/src/jobs.ts');
    expect(stdout).toContain("+  if (!(await claimPeriod('billing:jobs', { cron: '0 * * * *' }))) return;");
    expect(stdout).toContain("+import { claimPeriod } from 'replica-guard';");
    expect(stdout).toMatch(/1 file scanned, 1 would change, 1 finding fixed/);
    expect(read(dir, 'src/jobs.ts')).toBe(UNGUARDED);
  });

  test('--check exits 1 when something would change and 0 once nothing would', () => {
    const dir = repo({ 'src/jobs.ts': UNGUARDED, 'src/clean.ts': CLEAN });
    const check = run(dir, '--check');
    expect(check.status).toBe(1);
    expect(check.stdout).toContain('--check: 1 file would change: src/jobs.ts');
    expect(read(dir, 'src/jobs.ts')).toBe(UNGUARDED);
    expect(run(dir).status).toBe(0);
    const again = run(dir, '--check');
    expect(again.status).toBe(0);
    expect(again.stdout).toMatch(/2 files scanned, 0 would change/);
  });

  test('refuses to write into a dirty git tree without --force', () => {
    const dir = repo({ 'src/jobs.ts': UNGUARDED });
    writeFileSync(join(dir, 'src/clean.ts'), CLEAN);
    const refused = run(dir);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/refusing to write into a dirty git tree .*src\/clean\.ts.*--force/);
    expect(read(dir, 'src/jobs.ts')).toBe(UNGUARDED);
    // A dry run and a check write nothing, so they do not care.
    expect(run(dir, '--dry-run').status).toBe(0);
    const forced = run(dir, '--force');
    expect(forced.status).toBe(0);
    expect(read(dir, 'src/jobs.ts')).toContain('claimPeriod(');
  });

  test('a file that does not parse is reported and skipped; the others are still rewritten; exit 1', () => {
    const dir = repo({ 'src/broken.ts': 'setInterval(async () => { await fetch("x") , 1000);\n', 'src/jobs.ts': UNGUARDED });
    const { status, stdout } = run(dir);
    expect(status).toBe(1);
    expect(stdout).toMatch(/failed \(skipped\):\n {2}src\/broken\.ts: Parsing error: .*\(1:\d+\)/);
    expect(read(dir, 'src/broken.ts')).toBe('setInterval(async () => { await fetch("x") , 1000);\n');
    expect(read(dir, 'src/jobs.ts')).toContain('claimPeriod(');
  });

  test('--json prints the machine report', () => {
    const dir = repo({
      'src/jobs.ts': UNGUARDED,
      'src/imported.ts':
        "import cron from 'node-cron';\nimport { jobs } from './jobs-registry.js';\n\ncron.schedule('* * * * *', jobs.sweep);\n",
    });
    const { status, stdout } = run(dir, '--json', '--dry-run', '--service', 'invoicing', '--transform', 'guard-schedules');
    expect(status).toBe(0);
    const report = JSON.parse(stdout) as Record<string, unknown>;
    expect(report).toEqual({
      transforms: ['guard-schedules'],
      filesScanned: 2,
      filesChanged: 2,
      findingsFixed: 1,
      changed: [
        { file: 'src/imported.ts', findingsFixed: 0 },
        { file: 'src/jobs.ts', findingsFixed: 1 },
      ],
      manual: [
        {
          file: 'src/imported.ts',
          line: 5,
          reason: 'the work function is not defined in this file; make it begin with a claimPeriod guard where it is defined',
          transform: 'guard-schedules',
        },
        {
          file: 'src/jobs.ts',
          line: 1,
          reason:
            'guards do nothing until setLeaseClient(<redis client>) runs, and no Redis client is created here: call it once at startup with your ioredis or node-redis client',
          transform: 'guard-schedules',
        },
      ],
      leaseKeys: [{ key: 'invoicing:jobs', file: 'src/jobs.ts', line: 6 }],
      notes: [],
      errors: [],
      skipped: [],
      written: false,
    });
  });

  test('--service names the service in lease keys; default is the package name without scope', () => {
    const dir = repo({ 'src/jobs.ts': UNGUARDED });
    expect(run(dir, '--dry-run').stdout).toContain("'billing:jobs'");
    expect(run(dir, '--dry-run', '--service', 'invoicing').stdout).toContain("'invoicing:jobs'");
  });

  test('never follows a symlink out of the root', () => {
    const outside = join(scratch, 'outside');
    mkdirSync(outside, { recursive: true });
    writeFileSync(join(outside, 'evil.ts'), UNGUARDED);
    const dir = repo({ 'src/jobs.ts': UNGUARDED });
    symlinkSync(join(outside, 'evil.ts'), join(dir, 'src/evil.ts'));
    symlinkSync(outside, join(dir, 'src/linked-dir'), 'dir');
    const { status, stdout } = run(dir, '--force', '--json');
    expect(status).toBe(0);
    const report = JSON.parse(stdout) as { filesScanned: number; changed: Array<{ file: string }> };
    expect(report.filesScanned).toBe(1);
    expect(report.changed).toEqual([{ file: 'src/jobs.ts', findingsFixed: 1 }]);
    expect(readFileSync(join(outside, 'evil.ts'), 'utf8')).toBe(UNGUARDED);
    expect(read(dir, 'src/jobs.ts')).toContain('claimPeriod(');
    // Named explicitly, the link is reported as skipped rather than followed.
    const explicit = JSON.parse(run(dir, '--force', '--json', 'src/evil.ts').stdout) as { filesScanned: number; skipped: unknown[] };
    expect(explicit.filesScanned).toBe(0);
    expect(explicit.skipped).toEqual([{ file: 'src/evil.ts', reason: 'symlink leads outside the root' }]);
    expect(readFileSync(join(outside, 'evil.ts'), 'utf8')).toBe(UNGUARDED);
  });

  test('honours .gitignore and skips node_modules, dist, build and coverage', () => {
    const dir = repo({
      '.gitignore': 'generated/\n*.gen.ts\n',
      'src/jobs.ts': UNGUARDED,
      'generated/jobs.ts': UNGUARDED,
      'src/jobs.gen.ts': UNGUARDED,
      'node_modules/dep/index.js': UNGUARDED,
      'dist/jobs.js': UNGUARDED,
      'build/jobs.js': UNGUARDED,
      'coverage/jobs.js': UNGUARDED,
    });
    const { stdout } = run(dir, '--dry-run', '--json');
    const report = JSON.parse(stdout) as { filesScanned: number; changed: Array<{ file: string }> };
    expect(report.filesScanned).toBe(1);
    expect(report.changed.map((c) => c.file)).toEqual(['src/jobs.ts']);
  });

  test('handles every source extension', () => {
    const extensions = ['ts', 'tsx', 'mts', 'cts', 'js', 'jsx', 'mjs', 'cjs'];
    const dir = repo(Object.fromEntries(extensions.map((ext) => [`src/jobs-${ext}.${ext}`, UNGUARDED])));
    const report = JSON.parse(run(dir, '--dry-run', '--json').stdout) as { filesScanned: number; filesChanged: number; errors: unknown[] };
    expect(report).toMatchObject({ filesScanned: 8, filesChanged: 8, errors: [] });
  });

  test('writes atomically: no temp files left behind, the file mode kept', () => {
    const dir = repo({ 'src/jobs.ts': UNGUARDED });
    chmodSync(join(dir, 'src/jobs.ts'), 0o640);
    expect(run(dir, '--force').status).toBe(0);
    expect(readdirSync(join(dir, 'src'))).toEqual(['jobs.ts']);
    expect(statSync(join(dir, 'src/jobs.ts')).mode & 0o777).toBe(0o640);
  });

  test('--transform with an unknown name exits 2 and lists the known ones', () => {
    const dir = repo({ 'src/jobs.ts': UNGUARDED });
    const { status, stderr } = run(dir, '--transform', 'guard-schedules,nope');
    expect(status).toBe(2);
    expect(stderr).toContain(`unknown transform: nope (known: ${transforms.map((t) => t.name).join(', ')})`);
    expect(read(dir, 'src/jobs.ts')).toBe(UNGUARDED);
  });

  test('usage errors exit 2: an unknown option, a missing path', () => {
    const dir = repo({ 'src/jobs.ts': UNGUARDED });
    expect(run(dir, '--frobnicate').status).toBe(2);
    const missing = run(dir, 'nowhere');
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('path not found: nowhere');
  });

  test('--help lists every transform of the registry and the exit codes', () => {
    const { status, stdout } = run(scratch, '--help');
    expect(status).toBe(0);
    for (const transform of transforms) expect(stdout).toContain(transform.name);
    expect(stdout).toContain('--dry-run');
    expect(stdout).toContain('Exit codes: 0 done, 1 --check found work or a file failed, 2 usage or fatal error.');
  });

  test('outside a git repository it writes without asking', () => {
    const dir = join(scratch, 'no-git');
    mkdirSync(join(dir, 'src'), { recursive: true });
    writeFileSync(join(dir, 'src/jobs.ts'), UNGUARDED);
    expect(existsSync(join(dir, '.git'))).toBe(false);
    expect(run(dir, 'src').status).toBe(0);
    expect(read(dir, 'src/jobs.ts')).toContain('claimPeriod(');
  });
});
