import { ESLint } from 'eslint';
import tsParser from '@typescript-eslint/parser';
import plugin from '../../rules/index.js';
import { buildCorpus, corpusLanguageConfig } from './corpus.js';
const only = process.argv[2]!;
const limit = Number(process.argv[3] ?? 800);
const corpus = buildCorpus();
const rules: Record<string, 'error'> = {};
for (const n of only.split(',')) rules[n === 'no-unused-vars' ? n : `replica-guard/${n}`] = 'error';
const overrideConfig = [...(corpusLanguageConfig(tsParser) as never[]), { files: ['**/*'], plugins: { 'replica-guard': plugin as never }, settings: { 'replica-guard': { service: 'x' } }, rules }];
const files = corpus.files.filter((_, i) => i % Math.ceil(corpus.files.length / limit) === 0);
const eslint = new ESLint({ cwd: corpus.dir, overrideConfigFile: true, stats: true, overrideConfig: overrideConfig as never });
for (let round = 0; round < Number(process.env.ROUNDS ?? 2); round++) {
  const t0 = performance.now();
  const results = await eslint.lintFiles(files);
  const times = new Map<string, number>();
  for (const r of results) for (const p of r.stats?.times?.passes ?? []) for (const [k, v] of Object.entries(p.rules ?? {})) times.set(k, (times.get(k) ?? 0) + v.total);
  if (process.env.TOP) {
    const per: Array<[number, string, string]> = [];
    for (const r of results) for (const p of r.stats?.times?.passes ?? []) for (const [k, v] of Object.entries(p.rules ?? {})) per.push([v.total, k, r.filePath.slice(corpus.dir.length + 1)]);
    per.sort((a, b) => b[0] - a[0]);
    for (const [t, k, f] of per.slice(0, Number(process.env.TOP))) console.log(t.toFixed(1), k, f);
  }
  const fatal = results.filter((r) => r.messages.some((m) => m.fatal)).length;
  console.log(files.length, 'files', fatal, 'fatal', (performance.now() - t0).toFixed(0), 'ms', [...times].map(([k, v]) => `${k.replace('replica-guard/', '')}=${v.toFixed(0)}`).join(' '));
}
corpus.dispose();
