// Validation on code nobody here wrote: every rule and the codemod (dry run) over the benchmark
// corpus (test/bench/corpus.ts). Counts crashes — an exception out of a rule or the codemod; a
// file the parser rejects is counted apart — and writes every finding as `file:line rule message`
// to a report for the precision review in docs/validation.md.
//
//   npm run validate-corpus                          # report at /tmp/replica-guard-findings.txt
//   npm run validate-corpus -- --out findings.txt --packages typeorm,knex --max-bytes 2000000
//   npm run validate-corpus -- --apps                # the application corpus (scripts/fetch-corpus.ts)
//   npm run validate-corpus -- --apps --with-libraries   # both corpora in one run
import { Linter } from 'eslint';
import tsParser from '@typescript-eslint/parser';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import plugin from '../rules/index.js';
import { runCodemod } from '../codemods/index.js';
import { buildCorpus, buildCorpusFrom, CORPUS_PACKAGES, corpusLanguageConfig, type Corpus } from './corpus/corpus.js';
import { fetchCorpus } from './fetch-corpus.js';

const argument = (name: string): string | undefined => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const out =
  argument('--out') ?? (process.argv.includes('--apps') ? '/tmp/replica-guard-app-findings.txt' : '/tmp/replica-guard-findings.txt');
const packages = argument('--packages')?.split(',') ?? CORPUS_PACKAGES;

interface Finding {
  file: string;
  line: number;
  column: number;
  rule: string;
  options: 'default' | 'reportAll';
  message: string;
}

function rulesConfig(reportAll: boolean): Linter.RulesRecord {
  const rules: Linter.RulesRecord = {};
  for (const name of Object.keys(plugin.rules)) {
    rules[`replica-guard/${name}`] = name === 'no-unguarded-schedule' && reportAll ? ['error', { reportAll: true }] : 'error';
  }
  return rules;
}

const maxBytes = Number(argument('--max-bytes')) || undefined;
const apps = process.argv.includes('--apps');
const withLibraries = process.argv.includes('--with-libraries');

/** The library corpus (installed packages), the application corpus (fetched, cached), or both in one folder. */
async function assembleCorpus(): Promise<Corpus> {
  if (!apps) return buildCorpus(packages, process.cwd(), maxBytes);
  const fetched = await fetchCorpus(undefined, undefined, (line) => {
    if (line.startsWith('FAILED') || line.startsWith('fetched')) console.error(line);
  });
  for (const failure of fetched.failed) console.error(`not in the corpus (fetch failed): ${failure.name}: ${failure.error}`);
  const folders = [...fetched.packages];
  if (withLibraries) {
    for (const name of packages) {
      const dir = join(process.cwd(), 'node_modules', name);
      if (existsSync(dir)) folders.push({ name, dir });
    }
  }
  return buildCorpusFrom(folders, maxBytes);
}
const corpus = await assembleCorpus();
const linter = new Linter({ configType: 'flat', cwd: corpus.dir });
const base = [
  ...(corpusLanguageConfig(tsParser) as Linter.Config[]),
  { files: ['**/*'], plugins: { 'replica-guard': plugin as never }, settings: { 'replica-guard': { service: 'validate' } } },
];
const configs = {
  default: [...base, { files: ['**/*'], rules: rulesConfig(false) }],
  reportAll: [...base, { files: ['**/*'], rules: rulesConfig(true) }],
};
const findings: Finding[] = [];
const crashes: Array<{ file: string; error: string }> = [];
let parseFailures = 0;
const started = performance.now();
try {
  for (const file of corpus.files) {
    const text = readFileSync(join(corpus.dir, file), 'utf8');
    const filename = join(corpus.dir, file);
    let messages: Linter.LintMessage[];
    const verify = (config: Linter.Config[]): Linter.LintMessage[] => {
      const first = linter.verify(text, config, filename);
      // A `.js` file that is really CommonJS (top-level `return`, `with`): retry as a script.
      if (first.some((m) => m.fatal) && file.endsWith('.js'))
        return linter.verify(text, [...config, { files: ['**/*.js'], languageOptions: { sourceType: 'commonjs' } }], filename);
      return first;
    };
    try {
      // The widest options first; no-unguarded-schedule's default (reportAll off) is re-run only
      // where it found something, to tell which of its findings the default options keep.
      messages = verify(configs.reportAll);
      if (messages.some((m) => m.fatal)) {
        parseFailures++;
        continue;
      }
      const scheduleLines = messages.some((m) => m.ruleId === 'replica-guard/no-unguarded-schedule')
        ? new Set(
            verify(configs.default)
              .filter((m) => m.ruleId === 'replica-guard/no-unguarded-schedule')
              .map((m) => `${m.line}:${m.column}`),
          )
        : new Set<string>();
      for (const m of messages) {
        if (!m.ruleId?.startsWith('replica-guard/')) continue;
        const rule = m.ruleId.slice('replica-guard/'.length);
        const options = rule === 'no-unguarded-schedule' && !scheduleLines.has(`${m.line}:${m.column}`) ? 'reportAll' : 'default';
        findings.push({ file, line: m.line, column: m.column, rule, options, message: m.message });
      }
    } catch (error) {
      crashes.push({ file, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    }
  }
  const lintSeconds = (performance.now() - started) / 1000;

  const codemodStarted = performance.now();
  let codemodCrash: string | undefined;
  let codemod: Awaited<ReturnType<typeof runCodemod>> | undefined;
  try {
    codemod = await runCodemod({ cwd: corpus.dir, paths: ['.'], dryRun: true, force: true, service: 'validate' });
  } catch (error) {
    codemodCrash = error instanceof Error ? (error.stack ?? error.message) : String(error);
  }
  const codemodSeconds = (performance.now() - codemodStarted) / 1000;

  const byRule = new Map<string, number>();
  for (const f of findings)
    byRule.set(
      `${f.rule}${f.options === 'reportAll' ? ' (reportAll only)' : ''}`,
      (byRule.get(`${f.rule}${f.options === 'reportAll' ? ' (reportAll only)' : ''}`) ?? 0) + 1,
    );
  const summary = [
    `corpus: ${corpus.files.length} files from ${corpus.packages.join(', ')}`,
    `rules: ${corpus.files.length} files, ${parseFailures} parse failures, ${crashes.length} crashes, ${findings.length} findings (${lintSeconds.toFixed(1)} s)`,
    ...[...byRule].sort().map(([rule, n]) => `  ${rule}: ${n}`),
    codemod
      ? `codemod --dry-run: ${codemod.filesScanned} files scanned, ${codemod.filesChanged} would change, ${codemod.findingsFixed} fixes, ${codemod.manual.length} manual follow-ups, ${codemod.errors.length} file errors, 0 crashes (${codemodSeconds.toFixed(1)} s)`
      : `codemod --dry-run: CRASHED\n${codemodCrash}`,
  ];
  const lines = [
    ...summary,
    '',
    '# findings (file:line:column rule [options] message)',
    ...findings.map((f) => `${f.file}:${f.line}:${f.column} ${f.rule}${f.options === 'reportAll' ? ' [reportAll]' : ''} ${f.message}`),
    '',
    '# codemod: would change / manual follow-ups / file errors',
    ...(codemod?.changes ?? []).map((c) => `change ${c.file} (${c.fixed} fixes)`),
    ...(codemod?.manual ?? []).map((m) => `manual ${m.file}:${m.line} ${m.transform}: ${m.reason}`),
    ...(codemod?.errors ?? []).map((e) => `error ${e.file}: ${e.message}`),
    '',
    '# crashes',
    ...crashes.map((c) => `${c.file}\n${c.error}`),
  ];
  writeFileSync(out, `${lines.join('\n')}\n`);
  console.log(summary.join('\n'));
  console.log(`report: ${out}`);
  process.exitCode = crashes.length === 0 && codemodCrash === undefined ? 0 : 1;
} finally {
  corpus.dispose();
}
