// File-size benchmark (#19): lint and codemod on one generated service-like TypeScript file of
// 0.1, 1 and 5 MB (a chunk with schedules, SQL, reads and writes, a JetStream publish and ORM
// options, repeated with fresh names). For each size, side by side in one run, each in a fresh
// process: ESLint with the plugin (README config; ESLint has no size limit), then the built CLI
// `replica-codemod --dry-run --json` with its default `--max-file-size` (1 MB) and with
// `--max-file-size 0` (no limit). Each row is the whole process as a user runs it: wall time from
// spawn to exit (Node start and module loading included) and peak RSS (`maxRSS` at exit), per
// MB, the 1-minute load average when it ran, and whether it meets the issue's goal (5 s, 500 MB).
// Peak RSS does not depend on the machine's load; wall time does (an upper bound on a busy host).
// A script, not a test: it prints numbers and asserts nothing.
//
//   npm run bench:file-size
//   npm run bench:file-size -- --sizes 0.1,1,5
//   npm run bench:file-size -- --lint-only
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const argument = (name: string): string | undefined => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const sizes = (argument('--sizes') ?? '0.1,1,5').split(',').map(Number);

/** One chunk of a service: every rule has something to look at; names are fresh per chunk. */
function chunk(i: number): string {
  return `
export class Job${i}Service {
  constructor(private readonly db: Pool, private readonly js: JetStreamClient) {}

  @Cron('0 * * * *')
  async sweep${i}() {
    const { rows } = await this.db.query('select id, balance from accounts where id = $1', [${i}]);
    const balance = rows[0].balance + ${i};
    await this.db.query('update accounts set balance = $1 where id = $2', [balance, ${i}]);
    await this.js.publish('orders.${i}', JSON.stringify({ id: ${i} }));
  }

  async lock${i}() {
    await this.db.query('select pg_try_advisory_lock(${i})');
    const pending = await this.db.query("select * from jobs where state = 'pending' limit 10");
    for (const job of pending.rows) await this.db.query('update jobs set state = $1 where id = $2', ['done', job.id]);
  }
}

setInterval(async () => {
  await fetch('https://example.test/hook/${i}', { method: 'POST' });
}, ${60_000 + i});

export const options${i} = { type: 'postgres', synchronize: ${i % 2 === 0} };
`;
}

function generate(dir: string, megabytes: number): string {
  const header = `import { Pool } from 'pg';\nimport { Cron } from '@nestjs/schedule';\nimport type { JetStreamClient } from 'nats';\n`;
  const parts = [header];
  let length = header.length;
  for (let i = 0; length < megabytes * 1_000_000; i++) {
    const text = chunk(i);
    parts.push(text);
    length += text.length;
  }
  const file = join(dir, `service-${megabytes}mb.ts`);
  writeFileSync(file, parts.join(''));
  return file;
}

/** Prints the child's peak RSS on stderr as it exits (any Node program, the CLI included). */
const PEAK_RSS_PRELOAD = `data:text/javascript,${encodeURIComponent(
  "process.on('exit', () => process.stderr.write(`\\npeak-rss-kb ${process.resourceUsage().maxRSS}\\n`));",
)}`;

interface Row {
  wallMs: number;
  rssMb: number;
  result: string;
  load: number;
}

/** Runs `node <args>` in `cwd`: whole-process wall time, peak RSS, stdout. */
function measure(args: readonly string[], cwd: string): { wallMs: number; rssMb: number; stdout: string; load: number } {
  const load = loadavg()[0]!;
  const started = performance.now();
  const child = spawnSync(process.execPath, ['--import', PEAK_RSS_PRELOAD, ...args], { cwd, encoding: 'utf8', maxBuffer: 1 << 28 });
  const wallMs = performance.now() - started;
  const peak = /peak-rss-kb (\d+)/.exec(child.stderr ?? '');
  if (!peak) throw new Error(`no peak RSS from node ${args.join(' ')} (status ${child.status}): ${child.stderr?.slice(0, 500)}`);
  return { wallMs, rssMb: Number(peak[1]) / 1024, stdout: child.stdout, load: Math.max(load, loadavg()[0]!) };
}

const repo = resolve('.');
const lintScript = (file: string) => `
import { ESLint } from 'eslint';
import tsParser from '@typescript-eslint/parser';
const plugin = (await import(${JSON.stringify(`${repo}/dist/eslint-plugin.js`)})).default;
const eslint = new ESLint({ cwd: ${JSON.stringify(resolve(file, '..'))}, overrideConfigFile: true, stats: true, overrideConfig: [
  { files: ['**/*.ts'], languageOptions: { parser: tsParser } }, plugin.configs.recommended ] });
const [result] = await eslint.lintFiles([${JSON.stringify(file)}]);
const detail = {};
for (const pass of result.stats?.times?.passes ?? []) {
  for (const [rule, t] of Object.entries(pass.rules ?? {})) detail[rule.split('/').pop()] = (detail[rule.split('/').pop()] ?? 0) + t.total;
}
console.log(JSON.stringify({ problems: result.messages.length, fatal: result.messages.some((m) => m.fatal), detail }));
`;

function lint(file: string, megabytes: number): Row {
  const run = measure(['--input-type=module', '-e', lintScript(file)], repo);
  const out = JSON.parse(run.stdout.trim().split('\n').pop()!) as { problems: number; fatal: boolean; detail: Record<string, number> };
  const slowest = Object.entries(out.detail)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([name, t]) => `${name} ${(t / megabytes).toFixed(0)} ms/MB`)
    .join(', ');
  return { ...run, result: `${out.problems} problems${out.fatal ? ' (parse error)' : ''}; slowest: ${slowest}` };
}

interface CodemodJson {
  findingsFixed: number;
  manual: unknown[];
  skipped: Array<{ file: string; reason: string }>;
  errors: Array<{ message: string }>;
}

const cli = join(repo, 'dist', 'bin.js');
function codemod(dir: string, limit: readonly string[]): Row {
  const run = measure([cli, '--dry-run', '--json', ...limit, '.'], dir);
  const report = JSON.parse(run.stdout) as CodemodJson;
  const result = report.skipped.length
    ? `skipped: ${report.skipped[0]!.reason.split(':')[0]}`
    : `${report.findingsFixed} findings fixed, ${report.manual.length} follow-ups${report.errors.length ? `, failed: ${report.errors[0]!.message}` : ''}`;
  return { ...run, result };
}

const GOAL = { ms: 5_000, mb: 500 };
const cell = (text: string, width: number) => text.padStart(width);
function print(megabytes: number, what: string, row: Row | undefined, failure?: string): void {
  if (!row) {
    console.log(`${String(megabytes).padEnd(5)} ${what.padEnd(29)} ${failure ?? 'not run'}`);
    return;
  }
  const meets = row.wallMs < GOAL.ms && row.rssMb < GOAL.mb ? 'yes' : 'no';
  console.log(
    `${String(megabytes).padEnd(5)} ${what.padEnd(29)} ${cell((row.wallMs / 1000).toFixed(1), 7)} ${cell((row.wallMs / 1000 / megabytes).toFixed(1), 7)} ` +
      `${cell(row.rssMb.toFixed(0), 8)} ${cell((row.rssMb / megabytes).toFixed(0), 8)} ${cell(row.load.toFixed(1), 5)} ${cell(meets, 5)}  ${row.result}`,
  );
}

const root = mkdtempSync(join(tmpdir(), 'replica-guard-size-'));
try {
  console.log(
    `node ${process.version}, ${cpus().length} cores, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log(`size  run                           wall s  s / MB  peak MB  peak/MB  load  <5s&<500MB  result`);
  for (const megabytes of sizes) {
    const dir = join(root, `${megabytes}`);
    mkdirSync(dir);
    const file = generate(dir, megabytes);
    console.log(`-- ${megabytes} MB: ${statSync(file).size.toLocaleString('en-US')} bytes`);
    print(megabytes, 'lint (ESLint: no size limit)', lint(file, megabytes));
    if (process.argv.includes('--lint-only')) continue;
    for (const [what, limit] of [
      ['codemod (default: 1 MB limit)', []],
      ['codemod --max-file-size 0', ['--max-file-size', '0']],
    ] as const) {
      try {
        print(megabytes, what, codemod(dir, limit));
      } catch (error) {
        print(megabytes, what, undefined, `failed: ${(error as Error).message.split('\n')[0]}`);
      }
    }
  }
  console.log(
    `load average at the end ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
} finally {
  rmSync(root, { recursive: true, force: true });
}
