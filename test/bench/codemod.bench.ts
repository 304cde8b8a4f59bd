// Codemod benchmark: `replica-codemod --dry-run` over the lint benchmark's corpus (real library
// code, few findings), against an ESLint run of the plugin alone (its `recommended` config, no
// core rules) over the same files. Each side runs in its own child process so its peak memory
// (`process.resourceUsage().maxRSS`) is its own; rounds alternate so machine drift hits both.
// The codemod's text pre-filter (each transform's catalogue words) skips most files before
// parsing, which is why a no-op pass over a repository should cost less than linting it.
// `--concurrency` rounds: the codemod child also runs with concurrency 2 (this thread and one
// worker) and `auto` (resolved in the child at its start, as the CLI does: the idle cores) in
// the same rounds, printing the wall-time ratio to the serial run; the load average is printed
// because worker threads need idle cores.
// A third side, jscodeshift (pinned dev dependency) with a no-op transform (`jscodeshift-noop.cjs`:
// parse and print back, `tsx` for TypeScript, `babel` for JavaScript) in one process
// (`runInBand`, as the serial codemod), dry, over the same files: what a no-op pass costs in the
// usual codemod tool.
// A script, not a test: it prints ratios and asserts nothing.
//
//   npm run bench:codemod               # 3 rounds, medians reported
//   npm run bench:codemod -- --runs 5
//   npm run bench:codemod -- --packages eslint,lodash   # another corpus (installed packages)
//   npm run bench:codemod -- --levels 1                 # serial codemod against ESLint only
//   npm run bench:codemod -- --no-eslint                # only the codemod's concurrency rounds
//   npm run bench:codemod -- --no-jscodeshift           # without the jscodeshift side
//   npm run bench:codemod -- --default-limits           # the codemod skips big and generated files, as the CLI does
// The codemod side runs with `maxFileSize: 0, includeGenerated: true` unless `--default-limits`:
// ESLint and jscodeshift parse every file, so the comparison (and earlier rounds' figures) stays
// on the same files.
import { execFileSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { autoConcurrency } from '../../codemods/engine/worker-pool.js';
import { buildBenchCorpus, buildCorpus, corpusLanguageConfig, median } from '../../scripts/corpus/corpus.js';

interface ChildResult {
  side: 'codemod' | 'eslint' | 'jscodeshift';
  /** The codemod's `concurrency` (1 for ESLint). */
  concurrency: number;
  files: number;
  ms: number;
  /** Of `ms`, the time spent importing the tool's modules. */
  importMs: number;
  /** CPU time of the child (user + system, every thread): steadier than wall time on a busy machine. */
  cpuMs: number;
  maxRssMb: number;
  findings: number;
  errors: number;
}

/** `0` on the command line of a child: `auto`, resolved there. */
const AUTO = 0;

/** The files both ESLint and jscodeshift are given (the codemod finds the same ones itself). */
const CORPUS_EXTENSIONS = ['js', 'cjs', 'mjs', 'ts', 'mts', 'cts'];

interface JscodeshiftStats {
  ok: number;
  nochange: number;
  skip: number;
  error: number;
}

/** jscodeshift's runner (CommonJS, untyped): the no-op transform over `dir`, dry, in this process. */
async function jscodeshiftNoop(dir: string, started: number): Promise<Pick<ChildResult, 'files' | 'errors' | 'importMs'>> {
  const runner = 'jscodeshift/src/Runner.js';
  const { run } = (await import(runner)) as {
    run: (transform: string, paths: string[], options: Record<string, unknown>) => Promise<JscodeshiftStats>;
  };
  const importMs = performance.now() - started;
  const transform = fileURLToPath(new URL('./jscodeshift-noop.cjs', import.meta.url));
  const options = { dry: true, silent: true, runInBand: true, babel: false, verbose: 0, extensions: CORPUS_EXTENSIONS.join(',') };
  const stats = await run(transform, [dir], options);
  return { files: stats.ok + stats.nochange + stats.skip + stats.error, errors: stats.error, importMs };
}

async function child(side: string, dir: string, asked: number): Promise<void> {
  const concurrency = asked === AUTO ? autoConcurrency() : asked;
  const started = performance.now();
  let files = 0;
  let findings = 0;
  let errors = 0;
  let importMs = 0;
  if (side === 'jscodeshift') {
    ({ files, errors, importMs } = await jscodeshiftNoop(dir, started));
  } else if (side === 'codemod') {
    const { runCodemod } = await import('../../codemods/index.js');
    importMs = performance.now() - started;
    const limits = process.argv.includes('--default-limits') ? {} : { maxFileSize: 0, includeGenerated: true };
    const report = await runCodemod({ cwd: dir, paths: ['.'], dryRun: true, force: true, service: 'bench', concurrency, ...limits });
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
    const results = await eslint.lintFiles([`**/*.{${CORPUS_EXTENSIONS.join(',')}}`]);
    files = results.length;
    for (const r of results) {
      findings += r.messages.filter((m) => m.ruleId?.startsWith('replica-guard/')).length;
      errors += r.messages.filter((m) => m.fatal).length;
    }
  }
  const ms = performance.now() - started;
  const result: ChildResult = {
    side: side as ChildResult['side'],
    concurrency,
    files,
    ms,
    importMs,
    cpuMs: (process.cpuUsage().user + process.cpuUsage().system) / 1000,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
    findings,
    errors,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

function runChild(side: ChildResult['side'], dir: string, concurrency = 1): ChildResult {
  const args = ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', side, dir, String(concurrency)];
  if (process.argv.includes('--default-limits')) args.push('--default-limits');
  const out = execFileSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 26 });
  return JSON.parse(out.trim().split('\n').at(-1)!) as ChildResult;
}

const childAt = process.argv.indexOf('--child');
if (childAt > 0) {
  await child(process.argv[childAt + 1]!, process.argv[childAt + 2]!, Number(process.argv[childAt + 3] ?? 1));
} else {
  const runsAt = process.argv.indexOf('--runs');
  const runs = runsAt > 0 ? Math.max(1, Number(process.argv[runsAt + 1]) || 1) : 3;
  const packagesAt = process.argv.indexOf('--packages');
  // The lint benchmark's corpus (installed libraries plus the pinned fetched ones), unless `--packages`.
  const corpus = packagesAt > 0 ? buildCorpus(process.argv[packagesAt + 1]!.split(',')) : await buildBenchCorpus();
  console.log(`corpus: ${corpus.files.length} files from ${corpus.packages.join(', ')}`);
  const withEslint = !process.argv.includes('--no-eslint');
  const withJscodeshift = !process.argv.includes('--no-jscodeshift');
  // `--levels 1` runs only the serial codemod against ESLint (the no-op-pass comparison), faster.
  const levelsAt = process.argv.indexOf('--levels');
  const levels = levelsAt > 0 ? process.argv[levelsAt + 1]!.split(',').map((l) => (l === 'auto' ? AUTO : Number(l))) : [1, 2, AUTO];
  if (!levels.includes(1) || levels.some((l) => l !== AUTO && !(Number.isInteger(l) && l >= 1)))
    throw new Error(`--levels must list 1 and positive integers or 'auto', got '${process.argv[levelsAt + 1]}'`);
  const label = (n: number): string => (n === AUTO ? 'auto' : String(n));
  console.log(`node ${process.version}, ${runs} round(s) each side, alternating, medians reported`);
  console.log(`${cpus().length} cores (${cpus()[0]?.model.trim() ?? '?'}); --concurrency auto would be ${autoConcurrency()} now\n`);
  const load = (): string =>
    loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
  const loads = [load()];
  try {
    const codemodAt = new Map<number, ChildResult[]>(levels.map((n) => [n, []]));
    const eslint: ChildResult[] = [];
    const jscodeshift: ChildResult[] = [];
    for (let i = 0; i < runs; i++) {
      // Rotate the order so neither the serial nor the threaded run always goes first.
      const order = levels.map((_, k) => levels[(k + i) % levels.length]!);
      for (const n of order) codemodAt.get(n)!.push(runChild('codemod', corpus.dir, n));
      if (withEslint) eslint.push(runChild('eslint', corpus.dir));
      if (withJscodeshift) jscodeshift.push(runChild('jscodeshift', corpus.dir));
      loads.push(load());
    }
    const codemod = codemodAt.get(1)!;
    /** The median of the per-round CPU-time ratios, and the rounds. */
    const cpuRatio = (a: ChildResult[], b: ChildResult[]): string => {
      const ratios = a.map((r, i) => r.cpuMs / b[i]!.cpuMs);
      return `${median(ratios).toFixed(3)} (per round ${ratios.map((r) => r.toFixed(3)).join(', ')})`;
    };
    const row = (name: string, rs: ChildResult[]): [number, number] => {
      const ms = median(rs.map((r) => r.ms));
      const files = rs[0]!.files;
      const rss = median(rs.map((r) => r.maxRssMb));
      const importMs = median(rs.map((r) => r.importMs));
      console.log(
        `${name.padEnd(34)} ${String(files).padStart(6)} files ${`${(ms / 1000).toFixed(1)} s`.padStart(9)} ${`${((files / ms) * 1000).toFixed(0)} files/s`.padStart(14)}  (imports ${(importMs / 1000).toFixed(1)} s, CPU ${(median(rs.map((r) => r.cpuMs)) / 1000).toFixed(1)} s)  peak RSS ${rss.toFixed(0)} MB  findings ${rs[0]!.findings}  errors ${rs[0]!.errors}`,
      );
      return [ms, rss];
    };
    const [codemodMs, codemodRss] = row('replica-codemod --dry-run', codemod);
    for (const n of levels.slice(1)) {
      const at = codemodAt.get(n)!;
      row(`  --concurrency ${label(n)}${n === AUTO ? ` (= ${at.map((r) => r.concurrency).join(', ')})` : ''}`, at);
    }
    if (withEslint) {
      const [eslintMs, eslintRss] = row('eslint, plugin recommended only', eslint);
      const ratios = codemod.map((c, i) => c.ms / eslint[i]!.ms);
      const workRatios = codemod.map((c, i) => (c.ms - c.importMs) / (eslint[i]!.ms - eslint[i]!.importMs));
      console.log(
        `\ncodemod dry run / eslint plugin run: ${(codemodMs / eslintMs).toFixed(3)} (per round ${ratios.map((r) => r.toFixed(3)).join(', ')})`,
      );
      console.log(
        `the same without module imports: ${median(workRatios).toFixed(3)} (per round ${workRatios.map((r) => r.toFixed(3)).join(', ')})`,
      );
      console.log(`CPU time codemod / eslint: ${cpuRatio(codemod, eslint)}`);
      console.log(`peak memory codemod / eslint: ${(codemodRss / eslintRss).toFixed(2)}`);
    }
    if (withJscodeshift) {
      const [jscodeshiftMs, jscodeshiftRss] = row('jscodeshift no-op transform', jscodeshift);
      const ratios = codemod.map((c, i) => c.ms / jscodeshift[i]!.ms);
      console.log(
        `\ncodemod dry run / jscodeshift no-op: ${(codemodMs / jscodeshiftMs).toFixed(3)} (per round ${ratios.map((r) => r.toFixed(3)).join(', ')})`,
      );
      console.log(`CPU time codemod / jscodeshift: ${cpuRatio(codemod, jscodeshift)}`);
      console.log(`peak memory codemod / jscodeshift: ${(codemodRss / jscodeshiftRss).toFixed(2)}`);
    }
    for (const n of levels.slice(1)) {
      const at = codemodAt.get(n)!;
      const perRound = at.map((r, i) => r.ms / codemod[i]!.ms);
      const work = at.map((r, i) => (r.ms - r.importMs) / (codemod[i]!.ms - codemod[i]!.importMs));
      console.log(
        `\nconcurrency ${label(n)} / concurrency 1 wall time: ${(median(at.map((r) => r.ms)) / codemodMs).toFixed(3)} (per round ${perRound.map((r) => r.toFixed(3)).join(', ')}; without module imports ${median(work).toFixed(3)})`,
      );
      console.log(`peak memory concurrency ${label(n)} / concurrency 1: ${(median(at.map((r) => r.maxRssMb)) / codemodRss).toFixed(2)}`);
      const same = at.every((r) => r.findings === codemod[0]!.findings && r.errors === codemod[0]!.errors && r.files === codemod[0]!.files);
      console.log(`same files, findings and errors as concurrency 1: ${same ? 'yes' : 'NO'}`);
    }
    console.log(`\nload average (1/5/15 min) at the start and after each round: ${loads.join(' | ')}`);
  } finally {
    corpus.dispose();
  }
}
