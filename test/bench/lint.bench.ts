// Lint benchmark: what the plugin's rules cost next to ESLint's core `no-unused-vars`, measured in
// the SAME ESLint run over real code this repo does not contain (the JavaScript and TypeScript
// shipped in installed packages, copied to a temp folder so ESLint does not ignore it).
// Per-rule times come from ESLint's `stats` (the numbers `TIMING=all` prints). A script, not a
// test: it prints ratios and asserts nothing.
//
//   npm run bench:lint                 # default corpus
//   npm run bench:lint -- --runs 3     # repeat, report the median run
import { ESLint } from 'eslint';
import tsParser from '@typescript-eslint/parser';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import plugin from '../../rules/index.js';

const PACKAGES = ['typeorm', 'drizzle-orm', 'kysely', 'knex', 'ioredis', '@redis/client', 'nats', 'rxjs', 'bullmq', 'node-cron', 'cron', 'croner', 'node-schedule', 'toad-scheduler'];
const SOURCE = /\.(?:[cm]?js|[cm]?ts)$/;
const MAX_BYTES = 300_000;
const root = process.cwd();
const runsArg = process.argv.indexOf('--runs');
const runs = runsArg > 0 ? Math.max(1, Number(process.argv[runsArg + 1]) || 1) : 1;

function* sources(directory: string): Generator<string> {
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory() && entry.name !== 'node_modules') yield* sources(path);
    else if (entry.isFile() && SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts') && !entry.name.endsWith('.map') && statSync(path).size <= MAX_BYTES) yield path;
  }
}

function buildCorpus(): { dir: string; files: number; packages: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'replica-guard-lint-bench-'));
  let files = 0;
  const packages: string[] = [];
  for (const name of PACKAGES) {
    const from = join(root, 'node_modules', name);
    try {
      statSync(from);
    } catch {
      continue;
    }
    packages.push(name);
    for (const file of sources(from)) {
      const to = join(dir, name, relative(from, file));
      mkdirSync(join(to, '..'), { recursive: true });
      cpSync(file, to);
      files++;
    }
  }
  return { dir, files, packages };
}

interface RunResult {
  wallMs: number;
  rules: Map<string, number>;
  parseMs: number;
}

async function lintOnce(dir: string, withPlugin: boolean): Promise<RunResult> {
  const pluginRules: Record<string, 'error'> = {};
  if (withPlugin) for (const name of Object.keys(plugin.rules)) pluginRules[`replica-guard/${name}`] = 'error';
  const eslint = new ESLint({
    cwd: dir,
    overrideConfigFile: true,
    stats: true,
    overrideConfig: [
      { files: ['**/*.ts', '**/*.mts', '**/*.cts'], languageOptions: { parser: tsParser as never } },
      { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs' } },
      { files: ['**/*.js'], languageOptions: { sourceType: 'module' } },
      {
        files: ['**/*'],
        plugins: { 'replica-guard': plugin as never },
        settings: { 'replica-guard': { service: 'bench' } },
        linterOptions: { reportUnusedDisableDirectives: 'off' },
        rules: { 'no-unused-vars': 'error', ...pluginRules },
      },
    ],
  });
  const started = performance.now();
  const results = await eslint.lintFiles(['**/*.{js,cjs,mjs,ts,mts,cts}']);
  const wallMs = performance.now() - started;
  const rules = new Map<string, number>();
  let parseMs = 0;
  for (const result of results) {
    const times = result.stats?.times;
    for (const pass of times?.passes ?? []) {
      parseMs += pass.parse?.total ?? 0;
      for (const [rule, time] of Object.entries(pass.rules ?? {})) rules.set(rule, (rules.get(rule) ?? 0) + time.total);
    }
  }
  return { wallMs, rules, parseMs };
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ms = (v: number): string => `${v.toFixed(0)} ms`;

const corpus = buildCorpus();
console.log(`corpus: ${corpus.files} files from ${corpus.packages.join(', ')}`);
console.log(`node ${process.version}, eslint ${ESLint.version}, ${runs} run(s) each, median reported\n`);
try {
  // Warm-up (JIT, file cache), then alternate with/without the plugin so drift hits both.
  await lintOnce(corpus.dir, true);
  const withRuns: RunResult[] = [];
  const withoutRuns: RunResult[] = [];
  for (let i = 0; i < runs; i++) {
    withRuns.push(await lintOnce(corpus.dir, true));
    withoutRuns.push(await lintOnce(corpus.dir, false));
  }
  const ruleNames = [...new Set(withRuns.flatMap((r) => [...r.rules.keys()]))].sort();
  const perRule = new Map(ruleNames.map((name) => [name, median(withRuns.map((r) => r.rules.get(name) ?? 0))]));
  const unused = perRule.get('no-unused-vars') ?? 0;
  const schedule = perRule.get('replica-guard/no-unguarded-schedule') ?? 0;
  const pluginTotal = ruleNames.filter((n) => n.startsWith('replica-guard/')).reduce((sum, n) => sum + perRule.get(n)!, 0);

  console.log('rule'.padEnd(44), 'time'.padStart(10), 'ratio to no-unused-vars'.padStart(26));
  for (const name of ruleNames) {
    const t = perRule.get(name)!;
    console.log(name.padEnd(44), ms(t).padStart(10), (unused > 0 ? (t / unused).toFixed(3) : 'n/a').padStart(26));
  }
  console.log('-'.repeat(82));
  console.log('plugin total'.padEnd(44), ms(pluginTotal).padStart(10), (unused > 0 ? (pluginTotal / unused).toFixed(3) : 'n/a').padStart(26));
  const wallWith = median(withRuns.map((r) => r.wallMs));
  const wallWithout = median(withoutRuns.map((r) => r.wallMs));
  console.log(`\nno-unguarded-schedule / no-unused-vars = ${(schedule / unused).toFixed(3)}`);
  console.log(`wall time: ${ms(wallWith)} with the plugin, ${ms(wallWithout)} without (overhead ${(((wallWith - wallWithout) / wallWithout) * 100).toFixed(1)}%)`);
  console.log(`parse time (with plugin run): ${ms(median(withRuns.map((r) => r.parseMs)))}`);
} finally {
  rmSync(corpus.dir, { recursive: true, force: true });
}
