// Crash-freedom on code nobody here wrote: lint every .ts/.js file of large installed packages
// with the plugin's rules (each with its widest options) and count files, findings, parse
// failures and crashes. A crash is any exception a rule throws; a file the parser rejects is not.
//
//   npm run crash-test                  # the default package list
//   npm run crash-test -- typeorm rxjs  # chosen packages
import { Linter } from 'eslint';
import tsParser from '@typescript-eslint/parser';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import plugin from '../rules/index.js';
import { CORPUS_PACKAGES } from './corpus/corpus.js';

export const DEFAULT_PACKAGES = [...CORPUS_PACKAGES, 'rxjs', '@nestjs/common', '@nestjs/core', '@nestjs/schedule', 'bullmq', 'eslint'];
const EXTENSIONS = /\.(?:[cm]?ts|[cm]?js)$/;
const MAX_BYTES = 1_000_000;

export interface CrashReport {
  packages: string[];
  files: number;
  findings: { file: string; line: number; rule: string; message: string }[];
  /** no-unguarded-schedule findings with its default options (the lint run uses `reportAll`). */
  defaultScheduleFindings: number;
  parseFailures: number;
  crashes: { file: string; error: string }[];
}

function* sourceFiles(directory: string): Generator<string> {
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) {
      if (entry.name === 'node_modules') continue;
      yield* sourceFiles(path);
    } else if (entry.isFile() && EXTENSIONS.test(entry.name) && statSync(path).size <= MAX_BYTES) {
      yield path;
    }
  }
}

/** Every rule on, with the options that exercise the most code. */
function ruleConfig(): Linter.RulesRecord {
  const rules: Linter.RulesRecord = {};
  for (const [name, rule] of Object.entries(plugin.rules)) {
    const widest = name === 'no-unguarded-schedule' ? [{ reportAll: true }] : [];
    rules[`replica-guard/${name}`] = ['error', ...widest];
    void rule;
  }
  return rules;
}

export function crashTest(packages: readonly string[], root = process.cwd(), limit = Infinity): CrashReport {
  const linter = new Linter({ configType: 'flat' });
  const rules = ruleConfig();
  const settings = { 'replica-guard': { service: 'crash-test' } };
  const replicaGuard = { rules: plugin.rules } as never;
  const config: Linter.Config[] = [
    { files: ['**/*.ts', '**/*.mts', '**/*.cts'], languageOptions: { parser: tsParser as never, sourceType: 'module' } },
    { files: ['**/*.js', '**/*.mjs'], languageOptions: { sourceType: 'module', ecmaVersion: 'latest' } },
    { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs', ecmaVersion: 'latest' } },
    { files: ['**/*'], plugins: { 'replica-guard': replicaGuard }, settings, rules },
  ];
  const report: CrashReport = { packages: [], files: 0, findings: [], parseFailures: 0, crashes: [], defaultScheduleFindings: 0 };
  const defaultsConfig: Linter.Config[] = [
    ...config,
    { files: ['**/*'], rules: { 'replica-guard/no-unguarded-schedule': ['error', { reportAll: false }] } },
  ];
  for (const name of packages) {
    const directory = join(root, 'node_modules', name);
    try {
      statSync(directory);
    } catch {
      continue;
    }
    report.packages.push(name);
    for (const file of sourceFiles(directory)) {
      if (report.files >= limit) return report;
      report.files++;
      const text = readFileSync(file, 'utf8');
      // A virtual path outside node_modules: ESLint ignores **/node_modules/ by default.
      const filename = join('corpus', name, relative(directory, file));
      let messages: Linter.LintMessage[];
      try {
        messages = linter.verify(text, config, filename);
        // A .js file that is really CommonJS with `return` at top level etc.: retry as a script.
        if (messages.some((m) => m.fatal) && /\.js$/.test(file)) {
          messages = linter.verify(text, [...config, { files: ['**/*.js'], languageOptions: { sourceType: 'commonjs' } }], filename);
        }
      } catch (error) {
        report.crashes.push({ file: filename, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
        continue;
      }
      if (messages.some((m) => m.fatal)) {
        report.parseFailures++;
        continue;
      }
      for (const m of messages) {
        if (m.ruleId?.startsWith('replica-guard/'))
          report.findings.push({ file: filename, line: m.line, rule: m.ruleId, message: m.message });
      }
      if (messages.some((m) => m.ruleId === 'replica-guard/no-unguarded-schedule')) {
        const again = linter.verify(text, defaultsConfig, filename);
        report.defaultScheduleFindings += again.filter((m) => m.ruleId === 'replica-guard/no-unguarded-schedule').length;
      }
    }
  }
  return report;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const packages = process.argv.slice(2).length > 0 ? process.argv.slice(2) : DEFAULT_PACKAGES;
  const started = performance.now();
  const report = crashTest(packages);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const byRule = new Map<string, number>();
  for (const f of report.findings) byRule.set(f.rule, (byRule.get(f.rule) ?? 0) + 1);
  console.log(`packages: ${report.packages.join(', ')}`);
  console.log(
    `files: ${report.files}  parse failures: ${report.parseFailures}  findings: ${report.findings.length}  crashes: ${report.crashes.length}  (${seconds} s)`,
  );
  for (const [rule, count] of [...byRule].sort()) console.log(`  ${rule}: ${count}`);
  console.log(`  replica-guard/no-unguarded-schedule with default options (reportAll off): ${report.defaultScheduleFindings}`);
  for (const f of report.findings) console.log(`  ${f.file}:${f.line} ${f.rule}`);
  for (const c of report.crashes) console.error(`CRASH ${c.file}\n${c.error}\n`);
  process.exitCode = report.crashes.length === 0 ? 0 : 1;
}
