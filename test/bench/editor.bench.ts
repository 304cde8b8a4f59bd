// Editor benchmark: what an editor integration pays to re-lint one file in a warm process
// (ESLint's Node API, one long-lived `ESLint` instance, `lintText` with the file's path — as the
// VS Code ESLint server does on each keystroke pause). Files are re-linted after one warm-up lint
// of the whole monorepo-shaped corpus, so the cross-file module summaries are cached; each file is
// linted with the plugin's README config and without it, side by side, and the per-file medians
// and 95th percentiles are printed. A script, not a test: it prints numbers and asserts nothing.
//
//   npm run bench:editor                 # 200 files
//   npm run bench:editor -- --files 500
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import tsParser from '@typescript-eslint/parser';
import { ESLint } from 'eslint';
import { buildMonorepoCorpus, corpusLanguageConfig, median } from '../../scripts/corpus/corpus.js';

const argument = (name: string): string | undefined => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const count = Math.max(10, Number(argument('--files')) || 200);
const plugin = (await import(pathToFileURL(resolve('dist/eslint-plugin.js')).href)).default as {
  configs: { recommended: Record<string, unknown> };
};

const percentile = (values: readonly number[], p: number): number => [...values].sort((a, b) => a - b)[Math.floor(values.length * p)]!;

function engine(dir: string, withPlugin: boolean): ESLint {
  return new ESLint({
    cwd: dir,
    overrideConfigFile: true,
    overrideConfig: [
      ...(corpusLanguageConfig(tsParser) as never[]),
      { files: ['**/*'], rules: { 'no-unused-vars': 'error' } },
      ...(withPlugin ? [plugin.configs.recommended as never] : []),
    ],
  });
}

const corpus = await buildMonorepoCorpus();
try {
  const withPlugin = engine(corpus.dir, true);
  const without = engine(corpus.dir, false);
  // Warm: the whole corpus once through each (JIT, parsers, module summaries).
  await withPlugin.lintFiles(['**/*.{js,cjs,mjs,ts,mts,cts}']);
  await without.lintFiles(['**/*.{js,cjs,mjs,ts,mts,cts}']);
  const step = Math.max(1, Math.floor(corpus.files.length / count));
  const picked = corpus.files.filter((_, i) => i % step === 0).slice(0, count);
  const timesWith: number[] = [];
  const timesWithout: number[] = [];
  for (const file of picked) {
    const filePath = join(corpus.dir, file);
    const text = readFileSync(filePath, 'utf8');
    for (const [eslint, times] of [
      [withPlugin, timesWith],
      [without, timesWithout],
    ] as const) {
      const started = performance.now();
      await eslint.lintText(text, { filePath });
      times.push(performance.now() - started);
    }
  }
  const extra = timesWith.map((t, i) => t - timesWithout[i]!);
  console.log(`corpus: ${corpus.files.length} files; re-linted ${picked.length} one at a time in a warm process`);
  console.log(`per file with the plugin:    median ${median(timesWith).toFixed(1)} ms, p95 ${percentile(timesWith, 0.95).toFixed(1)} ms`);
  console.log(
    `per file without the plugin: median ${median(timesWithout).toFixed(1)} ms, p95 ${percentile(timesWithout, 0.95).toFixed(1)} ms`,
  );
  console.log(`added by the plugin:         median ${median(extra).toFixed(2)} ms, p95 ${percentile(extra, 0.95).toFixed(2)} ms`);
} finally {
  corpus.dispose();
}
