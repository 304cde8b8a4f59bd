// The lease ttl `advisory-lock-to-lease` writes: 60_000 by default, `--ttl` / `ttlMs` to change it,
// and a clear usage error for a bad value.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, expect, test } from 'vitest';
import { main } from '../../codemods/engine/cli.js';
import { runCodemod } from '../../codemods/index.js';
import { DEFAULT_LEASE_TTL_MS, ttlText } from '../../codemods/transforms/advisory-lock-to-lease/index.js';

const scratch = mkdtempSync(join(tmpdir(), 'advisory-lock-ttl-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const job = [
  "import { Pool } from 'pg';",
  'const pool = new Pool();',
  'export async function sweep(): Promise<void> {',
  "  await pool.query('SELECT pg_advisory_lock(1)');",
  '  try {',
  '    await work();',
  '  } finally {',
  "    await pool.query('SELECT pg_advisory_unlock(1)');",
  '  }',
  '}',
  'declare function work(): Promise<void>;',
  '',
].join('\n');

function project(): string {
  const dir = mkdtempSync(join(scratch, 'p-'));
  writeFileSync(join(dir, 'package.json'), '{ "name": "svc", "type": "module" }');
  writeFileSync(join(dir, 'job.ts'), job);
  return dir;
}

const sink = (): Writable & { text: string } => {
  const stream = new Writable({ write: (chunk, _encoding, done) => ((stream.text += String(chunk)), done()) }) as Writable & {
    text: string;
  };
  stream.text = '';
  return stream;
};

test('the default ttl is 60_000 ms', async () => {
  const dir = project();
  await runCodemod({ cwd: dir, transforms: ['advisory-lock-to-lease'], force: true });
  expect(DEFAULT_LEASE_TTL_MS).toBe(60_000);
  expect(readFileSync(join(dir, 'job.ts'), 'utf8')).toContain("await runExclusive('svc:sweep', 60_000, async (signal) => {");
});

test('ttlMs in the programmatic API sets it', async () => {
  const dir = project();
  await runCodemod({ cwd: dir, transforms: ['advisory-lock-to-lease'], force: true, ttlMs: 300_000 });
  expect(readFileSync(join(dir, 'job.ts'), 'utf8')).toContain("runExclusive('svc:sweep', 300_000, async (signal)");
});

test('--ttl on the command line sets it', async () => {
  const dir = project();
  const cwd = process.cwd();
  process.chdir(dir);
  try {
    const code = await main(['--transform', 'advisory-lock-to-lease', '--ttl', '15000', '--force', '--no-progress'], {
      stdout: sink() as never,
      stderr: sink() as never,
    });
    expect(code).toBe(0);
  } finally {
    process.chdir(cwd);
  }
  expect(readFileSync(join(dir, 'job.ts'), 'utf8')).toContain("runExclusive('svc:sweep', 15_000, async (signal)");
});

test('a bad --ttl is a usage error naming the value', async () => {
  const stderr = sink();
  const code = await main(['--ttl', 'soon', '--dry-run'], { stdout: sink() as never, stderr: stderr as never });
  expect(code).toBe(2);
  expect(stderr.text).toContain("--ttl must be a positive integer number of milliseconds, got 'soon'");
});

test('ttl text groups digits as people write durations', () => {
  expect([ttlText(500), ttlText(1500), ttlText(60000), ttlText(1234567)]).toEqual(['500', '1_500', '60_000', '1_234_567']);
});
