// Lint benchmark: what the plugin's rules cost next to ESLint's core `no-unused-vars`, measured in
// the SAME ESLint run over real code this repo does not contain (test/bench/corpus.ts: the
// JavaScript and TypeScript shipped in installed packages plus pinned libraries fetched with
// `npm pack` — @nestjs/*, bullmq, rxjs, Prisma's client, mongoose, sequelize — copied to a temp
// folder). Per-rule times come from ESLint's `stats` (the numbers `TIMING=all` prints). The
// plugin measured is the build users run (dist/, `npm run build` first); running the TypeScript
// sources through tsx would add its function-name wrappers to every rule. A script, not a test:
// it prints ratios and asserts nothing.
//
// Each configuration is its own row, measured in its own ESLint runs over the same files:
//   readme    `configs.recommended` exactly as the README shows it, no settings (what users run)
//   settings  `configs.recommended` with `settings['replica-guard']` (service, guards, globs)
//   all       every rule of the plugin, with settings
//
//   npm run bench:lint                       # monorepo-shaped corpus, 3 rounds, medians reported
//   npm run bench:lint -- --runs 5           # more rounds
//   npm run bench:lint -- --corpus libraries # the packages as they are (no monorepo layout)
//   npm run bench:lint -- --apps             # the application corpus (scripts/corpus/corpus-sources.ts)
//   npm run bench:lint -- --rows readme      # only some rows
//   npm run bench:lint -- --oxlint           # and the oxlint row: ESLint vs oxlint, each with only the plugin
//   npm run bench:lint -- --plugin /tmp/old/dist/eslint-plugin.js   # another build of the plugin
//   npm run bench:lint -- --compare /tmp/old/dist/eslint-plugin.js  # before/after: both plugins in ONE run
//   npm run bench:lint -- --no-cold          # without the first-run rows (each a fresh process)
//
// The rows above are warm: every module of the plugin, ESLint and the parser compiled, and the
// plugin's caches (project modules parsed for cross-file questions, package.json scripts) filled
// by the warm-up run. `npx eslint .` is none of that: one run, in a fresh process. So each row is
// also run cold, `--runs` times, each time in a new process that lints the corpus once.
import { ESLint } from 'eslint';
import tsParser from '@typescript-eslint/parser';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compareEngines } from './engine-comparison.js';
import { loadBuild } from './load-build.js';
import { buildAppCorpus, buildBenchCorpus, buildMonorepoCorpus, corpusLanguageConfig, median } from '../../scripts/corpus/corpus.js';

type Plugin = { rules: Record<string, unknown>; configs: Record<string, { rules?: Record<string, unknown> }> };

const argument = (name: string): string | undefined => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const runs = Math.max(1, Number(argument('--runs')) || 3);
const pluginPath = argument('--plugin') ?? 'dist/eslint-plugin.js';
if (!existsSync(pluginPath)) throw new Error(`${pluginPath} does not exist: run \`npm run build\` first (npm run bench:lint does)`);
const load = (path: string): Promise<Plugin> => loadBuild<Plugin>(path);
const plugin = await load(pluginPath);
const comparePath = argument('--compare');
/** A second build of the plugin (say, before a change), run under the `before/` prefix in the same lint runs. */
const baseline: Plugin | undefined = comparePath ? await load(comparePath) : undefined;

const SETTINGS = {
  'replica-guard': {
    service: 'bench',
    guards: ['withLease'],
    migrateEntrypoints: ['**/cmd/migrate.{ts,js}', '**/scripts/migrate.{ts,js}'],
  },
};
type Row = 'readme' | 'settings' | 'all';
const ROWS: Record<Row, string> = {
  readme: 'recommended, no settings (the README)',
  settings: 'recommended, with settings',
  all: 'every rule, with settings',
};
const rows = (argument('--rows')?.split(',') ?? Object.keys(ROWS)) as Row[];

interface RunResult {
  wallMs: number;
  rules: Map<string, number>;
  parseMs: number;
}

/** The row's plugin rules (renamed under `prefix/`) plus core `no-unused-vars`, or `no-unused-vars` alone. */
function pluginRules(source: Plugin, prefix: string, row: Row): Record<string, unknown> {
  const names =
    row === 'all'
      ? Object.keys(source.rules).map((name) => [name, 'error'] as const)
      : Object.entries(source.configs.recommended?.rules ?? {}).map(([key, value]) => [key.split('/').pop()!, value] as const);
  return Object.fromEntries(names.map(([name, value]) => [`${prefix}/${name}`, value]));
}

function lintBenchConfig(row: Row | undefined): ESLint.Options['overrideConfig'] {
  return [
    ...(corpusLanguageConfig(tsParser) as never[]),
    {
      files: ['**/*'],
      plugins: { 'replica-guard': plugin as never, ...(baseline ? { before: baseline as never } : {}) } as never,
      ...(row && row !== 'readme' ? { settings: SETTINGS } : {}),
      linterOptions: { reportUnusedDisableDirectives: 'off' },
      rules: {
        'no-unused-vars': 'error',
        ...(row ? pluginRules(plugin, 'replica-guard', row) : {}),
        ...(row && baseline ? pluginRules(baseline, 'before', row) : {}),
      } as never,
    },
  ];
}

async function lintOnce(dir: string, row: Row | undefined): Promise<RunResult> {
  const eslint = new ESLint({ cwd: dir, overrideConfigFile: true, stats: true, overrideConfig: lintBenchConfig(row) });
  const started = performance.now();
  const results = await eslint.lintFiles(['**/*.{js,cjs,mjs,ts,mts,cts}']);
  const wallMs = performance.now() - started;
  const rules = new Map<string, number>();
  let parseMs = 0;
  for (const result of results) {
    for (const pass of result.stats?.times?.passes ?? []) {
      parseMs += pass.parse?.total ?? 0;
      for (const [rule, time] of Object.entries(pass.rules ?? {})) rules.set(rule, (rules.get(rule) ?? 0) + time.total);
    }
  }
  return { wallMs, rules, parseMs };
}

const ms = (v: number): string => `${v.toFixed(0)} ms`;
const prefixed = (r: RunResult, prefix: string): number =>
  [...r.rules].filter(([n]) => n.startsWith(`${prefix}/`)).reduce((s, [, t]) => s + t, 0);

function printRow(row: Row, withRuns: RunResult[]): number {
  const ruleNames = [...new Set(withRuns.flatMap((r) => [...r.rules.keys()]))].sort();
  const perRule = new Map(ruleNames.map((name) => [name, median(withRuns.map((r) => r.rules.get(name) ?? 0))]));
  const unused = perRule.get('no-unused-vars') ?? 0;
  // The plugin total is summed per round, then the median taken (not a sum of medians).
  const ratios = withRuns.map((r) => prefixed(r, 'replica-guard') / (r.rules.get('no-unused-vars') ?? Infinity));
  console.log(`\n## ${row}: ${ROWS[row]}`);
  console.log('rule'.padEnd(44), 'time'.padStart(10), 'ratio to no-unused-vars'.padStart(26));
  for (const name of ruleNames) {
    const t = perRule.get(name)!;
    console.log(name.padEnd(44), ms(t).padStart(10), (unused > 0 ? (t / unused).toFixed(3) : 'n/a').padStart(26));
  }
  console.log('-'.repeat(82));
  console.log(
    'plugin total'.padEnd(44),
    ms(median(withRuns.map((r) => prefixed(r, 'replica-guard')))).padStart(10),
    median(ratios).toFixed(3).padStart(26),
  );
  console.log(`plugin total / no-unused-vars per round: ${ratios.map((r) => r.toFixed(3)).join(', ')}`);
  if (baseline) {
    const beforeRatios = withRuns.map((r) => prefixed(r, 'before') / (r.rules.get('no-unused-vars') ?? Infinity));
    console.log(
      `before (${comparePath}): ${median(beforeRatios).toFixed(3)} (per round ${beforeRatios.map((r) => r.toFixed(3)).join(', ')})`,
    );
  }
  return median(ratios);
}

// A cold run's child: lint the corpus folder once, print the two totals, exit.
const coldChildDir = argument('--cold-child');
if (coldChildDir) {
  const result = await lintOnce(coldChildDir, argument('--row') as Row);
  console.log(`COLD ${JSON.stringify({ plugin: prefixed(result, 'replica-guard'), unused: result.rules.get('no-unused-vars') ?? 0 })}`);
  process.exit(0);
}

/** One cold run of `row`: a fresh process (same Node options) lints `dir` once. */
function coldRun(dir: string, row: Row): { plugin: number; unused: number } {
  const child = spawnSync(
    process.execPath,
    [...process.execArgv, fileURLToPath(import.meta.url), '--cold-child', dir, '--row', row, '--plugin', pluginPath],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  const line = child.stdout.split('\n').find((l) => l.startsWith('COLD '));
  if (child.status !== 0 || !line) throw new Error(`cold run of ${row} failed (exit ${child.status}): ${child.stderr.slice(-2000)}`);
  return JSON.parse(line.slice(5)) as { plugin: number; unused: number };
}

const corpusKind = process.argv.includes('--apps') ? 'apps' : (argument('--corpus') ?? 'monorepo');
const corpus =
  corpusKind === 'apps' ? await buildAppCorpus() : corpusKind === 'libraries' ? await buildBenchCorpus() : await buildMonorepoCorpus();
console.log(`corpus (${corpusKind}): ${corpus.files.length} files from ${corpus.packages.length} packages: ${corpus.packages.join(', ')}`);
if (corpus.missing.length > 0) console.log(`not available (skipped): ${corpus.missing.join(', ')}`);
console.log(`node ${process.version}, eslint ${ESLint.version}, ${runs} round(s), medians reported, plugin ${pluginPath}`);
try {
  // Warm-up (JIT, file cache); then, per round, every row and a run without the plugin, so drift
  // hits all. The rows take turns at going first: the first run of a round pays more.
  if (!process.argv.includes('--no-warm-up')) await lintOnce(corpus.dir, 'all');
  const byRow = new Map<Row, RunResult[]>(rows.map((row) => [row, []]));
  const withoutRuns: RunResult[] = [];
  for (let i = 0; i < runs; i++) {
    const order = [...rows.slice(i % rows.length), ...rows.slice(0, i % rows.length)];
    for (const row of order) byRow.get(row)!.push(await lintOnce(corpus.dir, row));
    withoutRuns.push(await lintOnce(corpus.dir, undefined));
  }
  const summary = rows.map((row) => [row, printRow(row, byRow.get(row)!)] as const);
  console.log('\n## summary: plugin total / core no-unused-vars (median)');
  for (const [row, ratio] of summary) console.log(`${ROWS[row].padEnd(44)} ${ratio.toFixed(3)}`);
  const first = byRow.get(rows[0]!)!;
  const overheads = first.map((r, i) => (r.wallMs - withoutRuns[i]!.wallMs) / withoutRuns[i]!.wallMs);
  console.log(
    `\nwall time (${rows[0]}): ${ms(median(first.map((r) => r.wallMs)))} with the plugin, ${ms(median(withoutRuns.map((r) => r.wallMs)))} without (overhead: median ${(median(overheads) * 100).toFixed(1)}%)`,
  );
  console.log(`parse time: ${ms(median(first.map((r) => r.parseMs)))}`);
  if (!process.argv.includes('--no-cold')) {
    console.log(`\n## first run in a fresh process (\`npx eslint .\`): plugin total / no-unused-vars, ${runs} process(es) per row`);
    for (const row of rows) {
      const colds = Array.from({ length: runs }, () => coldRun(corpus.dir, row));
      const ratios = colds.map((c) => c.plugin / c.unused);
      console.log(
        `${ROWS[row].padEnd(44)} ${median(ratios).toFixed(3)}  (per process ${ratios.map((r) => r.toFixed(3)).join(', ')}; plugin ${ms(
          median(colds.map((c) => c.plugin)),
        )}, no-unused-vars ${ms(median(colds.map((c) => c.unused)))})`,
      );
    }
  }
  if (process.argv.includes('--oxlint')) {
    console.log('\n## engines: the plugin alone (recommended rules) under ESLint and oxlint, same files (median of rounds)');
    const rounds = Array.from({ length: runs }, () => compareEngines(corpus.dir));
    for (const engine of ['eslint', 'oxlint'] as const) {
      const mine = rounds.map((r) => r.find((e) => e.engine === engine)!);
      console.log(
        `${engine.padEnd(8)} wall ${ms(median(mine.map((e) => e.wallMs))).padStart(9)}  cpu ${ms(median(mine.map((e) => e.cpuMs))).padStart(9)}  peak ${median(
          mine.map((e) => e.peakMb),
        )
          .toFixed(0)
          .padStart(5)} MB  findings ${mine[0]!.findings}`,
      );
    }
    const ratio = (key: 'wallMs' | 'cpuMs' | 'peakMb') =>
      median(rounds.map((r) => r.find((e) => e.engine === 'oxlint')![key] / r.find((e) => e.engine === 'eslint')![key])).toFixed(3);
    console.log(`oxlint / eslint: wall ${ratio('wallMs')}, cpu ${ratio('cpuMs')}, peak memory ${ratio('peakMb')}`);
  }
} finally {
  corpus.dispose();
}
