// Lint benchmark: what the plugin's rules cost next to ESLint's core `no-unused-vars`, measured in
// the SAME ESLint run over real code this repo does not contain (test/bench/corpus.ts: the
// JavaScript and TypeScript shipped in installed packages plus pinned libraries fetched with
// `npm pack` — @nestjs/*, bullmq, rxjs, Prisma's client, mongoose, sequelize — copied to a temp
// folder). Per-rule times come from ESLint's `stats` (the numbers `TIMING=all` prints). The
// plugin measured is the build users run (dist/, `npm run build` first); running the TypeScript
// sources through tsx would add its function-name wrappers to every rule. A script, not a test:
// it prints ratios and asserts nothing.
//
//   npm run bench:lint                 # 3 rounds, medians reported
//   npm run bench:lint -- --runs 5     # more rounds
//   npm run bench:lint -- --apps       # the application corpus instead (test/bench/corpus-sources.ts)
//   npm run bench:lint -- --plugin /tmp/old/dist/eslint-plugin.js   # another build of the plugin
//   npm run bench:lint -- --compare /tmp/old/dist/eslint-plugin.js  # before/after: both plugins in ONE run
import { ESLint } from 'eslint';
import tsParser from '@typescript-eslint/parser';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildAppCorpus, buildBenchCorpus, corpusLanguageConfig, median } from '../../scripts/corpus/corpus.js';

type Plugin = { rules: Record<string, unknown> };

const argument = (name: string): string | undefined => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const runs = Math.max(1, Number(argument('--runs')) || 3);
const pluginPath = argument('--plugin') ?? 'dist/eslint-plugin.js';
if (!existsSync(pluginPath)) throw new Error(`${pluginPath} does not exist: run \`npm run build\` first (npm run bench:lint does)`);
const load = async (path: string): Promise<Plugin> => (await import(pathToFileURL(resolve(path)).href)).default;
const plugin = await load(pluginPath);
const comparePath = argument('--compare');
/** A second build of the plugin (say, before a change), run under the `before/` prefix in the same lint runs. */
const baseline: Plugin | undefined = comparePath ? await load(comparePath) : undefined;

interface RunResult {
  wallMs: number;
  rules: Map<string, number>;
  parseMs: number;
}

/** Every plugin rule (a superset of `recommended`) plus core `no-unused-vars`, or `no-unused-vars` alone. */
function lintBenchConfig(withPlugin: boolean): ESLint.Options['overrideConfig'] {
  const pluginRules: Record<string, 'error'> = {};
  if (withPlugin) for (const name of Object.keys(plugin.rules)) pluginRules[`replica-guard/${name}`] = 'error';
  if (withPlugin && baseline) for (const name of Object.keys(baseline.rules)) pluginRules[`before/${name}`] = 'error';
  return [
    ...(corpusLanguageConfig(tsParser) as never[]),
    {
      files: ['**/*'],
      plugins: { 'replica-guard': plugin as never, ...(baseline ? { before: baseline as never } : {}) } as never,
      settings: { 'replica-guard': { service: 'bench' } },
      linterOptions: { reportUnusedDisableDirectives: 'off' },
      rules: { 'no-unused-vars': 'error', ...pluginRules },
    },
  ];
}

async function lintOnce(dir: string, withPlugin: boolean): Promise<RunResult> {
  const eslint = new ESLint({ cwd: dir, overrideConfigFile: true, stats: true, overrideConfig: lintBenchConfig(withPlugin) });
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

const corpus = process.argv.includes('--apps') ? await buildAppCorpus() : await buildBenchCorpus();
console.log(`corpus: ${corpus.files.length} files from ${corpus.packages.length} packages: ${corpus.packages.join(', ')}`);
if (corpus.missing.length > 0) console.log(`not available (skipped): ${corpus.missing.join(', ')}`);
console.log(`node ${process.version}, eslint ${ESLint.version}, ${runs} round(s), medians reported, plugin ${pluginPath}\n`);
try {
  // Warm-up (JIT, file cache), then alternate with/without the plugin so drift hits both.
  if (!process.argv.includes('--no-warm-up')) await lintOnce(corpus.dir, true);
  const withRuns: RunResult[] = [];
  const withoutRuns: RunResult[] = [];
  for (let i = 0; i < runs; i++) {
    withRuns.push(await lintOnce(corpus.dir, true));
    withoutRuns.push(await lintOnce(corpus.dir, false));
  }
  const ruleNames = [...new Set(withRuns.flatMap((r) => [...r.rules.keys()]))].sort();
  const perRule = new Map(ruleNames.map((name) => [name, median(withRuns.map((r) => r.rules.get(name) ?? 0))]));
  const unused = perRule.get('no-unused-vars') ?? 0;
  // The plugin total is summed per round, then the median taken (not a sum of medians).
  const totals = withRuns.map((r) => [...r.rules].filter(([n]) => n.startsWith('replica-guard/')).reduce((s, [, t]) => s + t, 0));
  const ratios = withRuns.map((r, i) => totals[i]! / (r.rules.get('no-unused-vars') ?? Infinity));
  const pluginTotal = median(totals);

  console.log('rule'.padEnd(44), 'time'.padStart(10), 'ratio to no-unused-vars'.padStart(26));
  for (const name of ruleNames) {
    const t = perRule.get(name)!;
    console.log(name.padEnd(44), ms(t).padStart(10), (unused > 0 ? (t / unused).toFixed(3) : 'n/a').padStart(26));
  }
  console.log('-'.repeat(82));
  console.log('plugin total'.padEnd(44), ms(pluginTotal).padStart(10), median(ratios).toFixed(3).padStart(26));
  console.log(`plugin total / no-unused-vars per round: ${ratios.map((r) => r.toFixed(3)).join(', ')}`);
  if (baseline) {
    const before = withRuns.map((r) => [...r.rules].filter(([n]) => n.startsWith('before/')).reduce((s, [, t]) => s + t, 0));
    const beforeRatios = withRuns.map((r, i) => before[i]! / (r.rules.get('no-unused-vars') ?? Infinity));
    console.log(
      `before (${comparePath}) total / no-unused-vars: ${median(beforeRatios).toFixed(3)} (per round ${beforeRatios.map((r) => r.toFixed(3)).join(', ')}); after: ${median(ratios).toFixed(3)}`,
    );
  }
  const wallWith = median(withRuns.map((r) => r.wallMs));
  const wallWithout = median(withoutRuns.map((r) => r.wallMs));
  const overheads = withRuns.map((r, i) => (r.wallMs - withoutRuns[i]!.wallMs) / withoutRuns[i]!.wallMs);
  console.log(
    `\nwall time: ${ms(wallWith)} with the plugin, ${ms(wallWithout)} without (overhead: median ${(median(overheads) * 100).toFixed(1)}%, per round ${overheads.map((o) => `${(o * 100).toFixed(1)}%`).join(', ')})`,
  );
  console.log(`parse time (with plugin run): ${ms(median(withRuns.map((r) => r.parseMs)))}`);
} finally {
  corpus.dispose();
}
