// File-size benchmark: lint and codemod cost must grow linearly with a file's size. Generates
// one service-like TypeScript file at 0.1, 1 and 5 MB (a chunk with schedules, SQL, reads and
// writes, a JetStream publish and ORM options, repeated with fresh names), then for each size
// prints the plugin's per-rule time (ESLint stats, README config) and the codemod's `--dry-run`
// time and peak memory, each in a fresh process, as time and peak memory per MB. Linear cost
// shows as flat ms/MB and peak/MB columns. A script, not a test: it prints numbers and asserts nothing.
//
//   npm run bench:file-size
//   npm run bench:file-size -- --sizes 0.1,1,5
//   npm run bench:file-size -- --lint-only
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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

/** Runs `script` in a fresh Node process and returns what it prints as JSON, with its peak RSS. */
function measure(script: string, cwd: string): { ms: number; rssMb: number; detail: Record<string, number> } {
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  return JSON.parse(out.trim().split('\n').pop()!) as { ms: number; rssMb: number; detail: Record<string, number> };
}

const repo = resolve('.');
const lintScript = (file: string) => `
import { ESLint } from 'eslint';
import tsParser from '@typescript-eslint/parser';
const plugin = (await import(${JSON.stringify(`${repo}/dist/eslint-plugin.js`)})).default;
const eslint = new ESLint({ cwd: ${JSON.stringify(resolve(file, '..'))}, overrideConfigFile: true, stats: true, overrideConfig: [
  { files: ['**/*.ts'], languageOptions: { parser: tsParser } }, plugin.configs.recommended ] });
const started = performance.now();
const [result] = await eslint.lintFiles([${JSON.stringify(file)}]);
const ms = performance.now() - started;
const detail = {};
for (const pass of result.stats?.times?.passes ?? []) {
  detail.parse = (detail.parse ?? 0) + (pass.parse?.total ?? 0);
  for (const [rule, t] of Object.entries(pass.rules ?? {})) detail[rule.split('/').pop()] = (detail[rule.split('/').pop()] ?? 0) + t.total;
}
console.log(JSON.stringify({ ms, rssMb: process.resourceUsage().maxRSS / 1024, detail }));
`;
const codemodScript = (dir: string) => `
const { runCodemod } = await import(${JSON.stringify(`${repo}/codemods/index.ts`)});
const started = performance.now();
const report = await runCodemod({ paths: [${JSON.stringify(dir)}], cwd: ${JSON.stringify(dir)}, dryRun: true, force: true, concurrency: 1 });
console.log(JSON.stringify({ ms: performance.now() - started, rssMb: process.resourceUsage().maxRSS / 1024, detail: { findings: report.findingsFixed } }));
`;

const root = mkdtempSync(join(tmpdir(), 'replica-guard-size-'));
try {
  console.log('size    lint ms   ms/MB   peak MB | codemod ms   ms/MB   peak MB  peak/MB | slowest rules (ms/MB)');
  for (const megabytes of sizes) {
    const dir = join(root, `${megabytes}`);
    mkdirSync(dir);
    const file = generate(dir, megabytes);
    const lint = measure(lintScript(file), repo);
    let codemod: { ms: number; rssMb: number } | undefined;
    try {
      if (!process.argv.includes('--lint-only')) codemod = measure(codemodScript(dir), repo);
    } catch (error) {
      console.log(`codemod failed at ${megabytes} MB: ${(error as Error).message.split('\n')[0]}`);
    }
    const rules = Object.entries(lint.detail)
      .filter(([name]) => name !== 'parse')
      .sort((a, b) => b[1] - a[1])
      .slice(0, 3)
      .map(([name, t]) => `${name} ${(t / megabytes).toFixed(0)}`)
      .join(', ');
    console.log(
      `${String(megabytes).padEnd(5)} ${lint.ms.toFixed(0).padStart(9)} ${(lint.ms / megabytes).toFixed(0).padStart(7)} ${lint.rssMb.toFixed(0).padStart(9)} | ` +
        `${(codemod?.ms.toFixed(0) ?? 'n/a').padStart(10)} ${(codemod ? (codemod.ms / megabytes).toFixed(0) : 'n/a').padStart(7)} ${(codemod?.rssMb.toFixed(0) ?? 'n/a').padStart(9)} ${(codemod ? (codemod.rssMb / megabytes).toFixed(0) : 'n/a').padStart(8)} | ${rules}`,
    );
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
