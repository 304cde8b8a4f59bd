// What makes a codemod run mergeable, through the CLI in temp git repositories: one lease key per
// job across the run, nothing written inside a literal, markers above the statement, writes only
// where the run may write, a git state it can read, UTF-8 only, owner and mode kept, a key-safe
// `--service`.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { read, repo, run, scratch } from './cli-harness.js';

const sweepJob = (what: string): string => `export async function sweep() {
  await ${what}.purgeExpired();
}

setInterval(sweep, 60_000);
`;

const classJob = (className: string): string => `import { Cron } from '@nestjs/schedule';

export class ${className} {
  @Cron('0 * * * *')
  async run() {
    await this.mailer.sendDigest();
  }
}
`;

const anonymousCron = `import cron from 'node-cron';

cron.schedule('0 * * * *', async () => {
  await sendDigest();
});
`;

interface JsonReport {
  leaseKeys: Array<{ key: string; file: string; line: number }>;
  skipped: Array<{ file: string; reason: string }>;
  errors: Array<{ file: string; message: string }>;
  manual: Array<{ file: string; line: number; reason: string }>;
  filesChanged: number;
}

const json = (dir: string, ...args: string[]): JsonReport => JSON.parse(run(dir, '--json', ...args).stdout) as JsonReport;
const keysOf = (report: JsonReport): string[] => report.leaseKeys.map((k) => k.key).sort();

describe('lease keys, one per job across the run', { timeout: 180_000 }, () => {
  test('two files with a function of the same name get keys qualified by module path', () => {
    const dir = repo({ 'src/sessions/jobs.ts': sweepJob('sessions'), 'src/uploads/jobs.ts': sweepJob('uploads') });
    const report = json(dir, '--force');
    expect(keysOf(report)).toEqual(['billing:src/sessions/jobs:sweep', 'billing:src/uploads/jobs:sweep']);
    expect(read(dir, 'src/sessions/jobs.ts')).toContain("claimPeriod('billing:src/sessions/jobs:sweep', 60_000)");
    expect(read(dir, 'src/uploads/jobs.ts')).toContain("claimPeriod('billing:src/uploads/jobs:sweep', 60_000)");
    // A second run finds every job guarded and changes nothing.
    expect(json(dir, '--force').filesChanged).toBe(0);
  });

  test('two classes with the same method name get keys qualified by class', () => {
    const dir = repo({ 'src/digest.ts': classJob('DigestJob'), 'src/report.ts': classJob('ReportJob') });
    const report = json(dir, '--dry-run');
    expect(keysOf(report)).toEqual(['billing:digest-job.run', 'billing:report-job.run']);
  });

  test('anonymous callbacks in two files of the same name: no line numbers, qualified by module path', () => {
    const dir = repo({ 'src/a/cron.ts': anonymousCron, 'src/b/cron.ts': anonymousCron });
    const report = json(dir, '--dry-run');
    expect(keysOf(report)).toEqual(['billing:src/a/cron:cron', 'billing:src/b/cron:cron']);
    expect(report.leaseKeys.every((k) => !/-\d+$/.test(k.key))).toBe(true);
  });

  test('a key already used in the repository is not written again', () => {
    const existing = `import { claimPeriod } from 'replica-guard';\nexport async function other() {\n  if (!(await claimPeriod('billing:sweep', 1000))) return;\n}\n`;
    const dir = repo({ 'src/jobs.ts': sweepJob('sessions'), 'src/other.ts': existing });
    expect(keysOf(json(dir, '--dry-run'))).toEqual(['billing:src/jobs:sweep']);
    // Also when the run is given only part of the tree.
    expect(keysOf(json(dir, '--dry-run', 'src/jobs.ts'))).toEqual(['billing:src/jobs:sweep']);
  });

  test('keys stay the same when code moves within its file', () => {
    const dir = repo({ 'src/a/cron.ts': anonymousCron, 'src/b/cron.ts': `// moved down\n\n\n${anonymousCron}` });
    expect(keysOf(json(dir, '--dry-run'))).toEqual(['billing:src/a/cron:cron', 'billing:src/b/cron:cron']);
  });

  test('the summary lists the keys written', () => {
    const dir = repo({ 'src/jobs.ts': sweepJob('sessions') });
    const { stdout } = run(dir, '--dry-run');
    expect(stdout).toContain('lease keys to write (one per job):');
    // The line is the key's in the rewritten file (below the added import).
    expect(stdout).toContain('  billing:sweep  src/jobs.ts:4');
  });

  test('with no package.json the service is the directory name, never the word "service"', () => {
    const dir = repo({ 'src/jobs.ts': sweepJob('sessions') }, { packageJson: false });
    expect(keysOf(json(dir, '--dry-run'))).toEqual([`${basename(dir)}:sweep`]);
  });
});

describe('--service is a key-safe name', { timeout: 180_000 }, () => {
  test.each([[''], ['Bad Name:x'], ['--dry-run']])('rejects %j with exit 2 and writes nothing', (value) => {
    const dir = repo({ 'src/jobs.ts': sweepJob('sessions') });
    const { status, stderr } = run(dir, '--service', value);
    expect(status).toBe(2);
    expect(stderr).toContain('--service');
    expect(read(dir, 'src/jobs.ts')).toBe(sweepJob('sessions'));
  });
});

describe('nothing written inside a literal', { timeout: 180_000 }, () => {
  test('a manual marker for a finding inside a multi-line SQL template goes above the statement', () => {
    const source = `import { prisma } from './db.js';

export async function exclusive() {
  const rows = await prisma.$queryRaw\`
    SELECT pg_try_advisory_lock(42) AS locked
  \`;
  return rows;
}
`;
    const dir = repo({ 'src/lock.ts': source });
    const report = json(dir, '--force', '--transform', 'advisory-lock-to-lease');
    const after = read(dir, 'src/lock.ts');
    // The SQL is byte-identical; the marker sits on its own line above `const rows = …`.
    expect(after).toContain('\`\n    SELECT pg_try_advisory_lock(42) AS locked\n  \`');
    const lines = after.split('\n');
    const statement = lines.findIndex((l) => l.includes('const rows = await prisma.$queryRaw'));
    expect(lines[statement - 1]).toMatch(/^ {2}\/\/ replica-guard: manual — /);
    expect(report.manual).toHaveLength(1);
  });
});

describe('writes only where it may', { timeout: 180_000 }, () => {
  test('a symlinked package.json is not written through', () => {
    const outside = join(scratch, `outside-pkg-${Date.now()}`);
    mkdirSync(outside, { recursive: true });
    const target = join(outside, 'package.json');
    const original = JSON.stringify({ name: 'elsewhere', scripts: {} });
    writeFileSync(target, original);
    const dir = repo(
      {
        'src/db.ts': `import { DataSource } from 'typeorm';\nexport const db = new DataSource({ type: 'postgres', synchronize: true });\n`,
      },
      { packageJson: false },
    );
    symlinkSync(target, join(dir, 'package.json'));
    execFileSync('git', ['add', '-A'], { cwd: dir });
    execFileSync('git', ['commit', '-qm', 'link'], { cwd: dir });
    run(dir, '--json');
    expect(readFileSync(target, 'utf8')).toBe(original);
  });

  test('refuses to write when the git state cannot be read, unless --force', () => {
    const dir = repo({ 'src/jobs.ts': sweepJob('sessions') });
    // A .git git cannot read (as with a checkout owned by another user).
    writeFileSync(join(dir, '.git', 'HEAD'), 'garbage\n');
    const refused = run(dir);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('git state cannot be read');
    expect(read(dir, 'src/jobs.ts')).toBe(sweepJob('sessions'));
    expect(run(dir, '--force').status).toBe(0);
    expect(read(dir, 'src/jobs.ts')).toContain('claimPeriod(');
  });

  test('a file that is not UTF-8 is skipped and reported, its bytes untouched', () => {
    const dir = repo({ 'src/jobs.ts': sweepJob('sessions') });
    const latin1 = Buffer.concat([Buffer.from(sweepJob('caf')), Buffer.from([0x2f, 0x2f, 0x20, 0xe9, 0x0a])]);
    writeFileSync(join(dir, 'src/latin1.ts'), latin1);
    execFileSync('git', ['add', '-A'], { cwd: dir });
    execFileSync('git', ['commit', '-qm', 'latin1'], { cwd: dir });
    const report = json(dir);
    expect(report.skipped).toContainEqual({ file: 'src/latin1.ts', reason: expect.stringContaining('not UTF-8') as string });
    expect(readFileSync(join(dir, 'src/latin1.ts')).equals(latin1)).toBe(true);
    expect(read(dir, 'src/jobs.ts')).toContain('claimPeriod(');
  });

  test('keeps the mode of a rewritten file', () => {
    const dir = repo({ 'src/jobs.ts': sweepJob('sessions') });
    // An executable bit, which git records, so the tree stays clean.
    chmodSync(join(dir, 'src/jobs.ts'), 0o750);
    execFileSync('git', ['commit', '-qam', 'mode'], { cwd: dir });
    run(dir);
    expect(statSync(join(dir, 'src/jobs.ts')).mode & 0o777).toBe(0o750);
    expect(read(dir, 'src/jobs.ts')).toContain('claimPeriod(');
  });
});
