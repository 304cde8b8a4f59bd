// Codemod benchmark: `replica-codemod --dry-run` over the lint benchmark's corpus (real library
// code, few findings), against an ESLint run of the plugin alone (its `recommended` config, no
// core rules) over the same files. Each side runs in its own child process so its peak memory
// (`process.resourceUsage().maxRSS`) is its own; rounds alternate so machine drift hits both.
// The codemod's text pre-filter (each transform's catalogue words) skips most files before
// parsing, which is why a no-op pass over a repository should cost less than linting it.
// A script, not a test: it prints ratios and asserts nothing.
//
//   npm run bench:codemod               # 3 rounds, medians reported
//   npm run bench:codemod -- --runs 5
//   npm run bench:codemod -- --packages eslint,lodash   # another corpus (installed packages)
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildCorpus, corpusLanguageConfig, median } from './corpus.js';

interface ChildResult {
  side: 'codemod' | 'eslint';
  files: number;
  ms: number;
  /** Of `ms`, the time spent importing the tool's modules. */
  importMs: number;
  maxRssMb: number;
  findings: number;
  errors: number;
}

async function child(side: string, dir: string): Promise<void> {
  const started = performance.now();
  let files = 0;
  let findings = 0;
  let errors = 0;
  let importMs = 0;
  if (side === 'codemod') {
    const { runCodemod } = await import('../../codemods/index.js');
    importMs = performance.now() - started;
    const report = await runCodemod({ cwd: dir, paths: ['.'], dryRun: true, force: true, service: 'bench' });
    files = report.filesScanned;
    findings = report.findingsFixed + report.manual.length;
    errors = report.errors.length;
  } else {
    const { ESLint } = await import('eslint');
    const tsParser = (await import('@typescript-eslint/parser')).default;
    const plugin = (await import('../../rules/index.js')).default;
    importMs = performance.now() - started;
    const eslint = new ESLint({
      cwd: dir,
      overrideConfigFile: true,
      overrideConfig: [
        ...(corpusLanguageConfig(tsParser) as never[]),
        { ...plugin.configs.recommended, files: ['**/*'], settings: { 'replica-guard': { service: 'bench' } } } as never,
        { linterOptions: { reportUnusedDisableDirectives: 'off' } },
      ],
    });
    const results = await eslint.lintFiles(['**/*.{js,cjs,mjs,ts,mts,cts}']);
    files = results.length;
    for (const r of results) {
      findings += r.messages.filter((m) => m.ruleId?.startsWith('replica-guard/')).length;
      errors += r.messages.filter((m) => m.fatal).length;
    }
  }
  const ms = performance.now() - started;
  const result: ChildResult = { side: side as ChildResult['side'], files, ms, importMs, maxRssMb: process.resourceUsage().maxRSS / 1024, findings, errors };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

function runChild(side: 'codemod' | 'eslint', dir: string): ChildResult {
  const out = execFileSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', side, dir], { encoding: 'utf8', maxBuffer: 1 << 26 });
  return JSON.parse(out.trim().split('\n').at(-1)!) as ChildResult;
}

const childAt = process.argv.indexOf('--child');
if (childAt > 0) {
  await child(process.argv[childAt + 1]!, process.argv[childAt + 2]!);
} else {
  const runsAt = process.argv.indexOf('--runs');
  const runs = runsAt > 0 ? Math.max(1, Number(process.argv[runsAt + 1]) || 1) : 3;
  const packagesAt = process.argv.indexOf('--packages');
  const corpus = packagesAt > 0 ? buildCorpus(process.argv[packagesAt + 1]!.split(',')) : buildCorpus();
  console.log(`corpus: ${corpus.files.length} files from ${corpus.packages.join(', ')}`);
  console.log(`node ${process.version}, ${runs} round(s) each side, alternating, medians reported\n`);
  try {
    const codemod: ChildResult[] = [];
    const eslint: ChildResult[] = [];
    for (let i = 0; i < runs; i++) {
      codemod.push(runChild('codemod', corpus.dir));
      eslint.push(runChild('eslint', corpus.dir));
    }
    const row = (name: string, rs: ChildResult[]): [number, number] => {
      const ms = median(rs.map((r) => r.ms));
      const files = rs[0]!.files;
      const rss = median(rs.map((r) => r.maxRssMb));
      const importMs = median(rs.map((r) => r.importMs));
      console.log(
        `${name.padEnd(34)} ${String(files).padStart(6)} files ${`${(ms / 1000).toFixed(1)} s`.padStart(9)} ${`${((files / ms) * 1000).toFixed(0)} files/s`.padStart(14)}  (imports ${(importMs / 1000).toFixed(1)} s)  peak RSS ${rss.toFixed(0)} MB  findings ${rs[0]!.findings}  errors ${rs[0]!.errors}`,
      );
      return [ms, rss];
    };
    const [codemodMs, codemodRss] = row('replica-codemod --dry-run', codemod);
    const [eslintMs, eslintRss] = row('eslint, plugin recommended only', eslint);
    const ratios = codemod.map((c, i) => c.ms / eslint[i]!.ms);
    const workRatios = codemod.map((c, i) => (c.ms - c.importMs) / (eslint[i]!.ms - eslint[i]!.importMs));
    console.log(`\ncodemod dry run / eslint plugin run: ${(codemodMs / eslintMs).toFixed(3)} (per round ${ratios.map((r) => r.toFixed(3)).join(', ')})`);
    console.log(`the same without module imports: ${median(workRatios).toFixed(3)} (per round ${workRatios.map((r) => r.toFixed(3)).join(', ')})`);
    console.log(`peak memory codemod / eslint: ${(codemodRss / eslintRss).toFixed(2)}`);
  } finally {
    corpus.dispose();
  }
}
