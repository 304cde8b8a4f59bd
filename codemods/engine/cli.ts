// `replica-codemod [paths…]`: rewrites what the replica-guard rules find into guard calls.
// Exit codes: 0 done, 1 `--check` found work or a file failed, 2 usage or fatal error.
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import pc from 'picocolors';
import { CodemodUsageError, Engine, MIN_FILES_FOR_WORKERS, type CodemodReport } from './engine.js';
import { PathNotFoundError } from './discover-files.js';
import { formatDiff } from './format-diff.js';
import { parseFileSize } from './file-limits.js';
import { autoConcurrency } from './worker-pool.js';
import { findTransforms, transforms, UnknownTransformError } from '../registry.js';
import { PLUGIN_VERSION } from '../../rules/utils/plugin-meta.js';
import { invalidServiceName } from '../../rules/rewrites/service-name.js';

interface CliOptions {
  dryRun?: boolean;
  check?: boolean;
  transform?: string;
  json?: boolean;
  service?: string;
  force?: boolean;
  ttl?: number;
  concurrency?: number;
  maxFileSize?: number;
  includeGenerated?: boolean;
}

function parseTtl(value: string): number {
  const ms = Number(value.replace(/_/g, ''));
  if (!Number.isInteger(ms) || ms <= 0)
    throw new InvalidArgumentError(`--ttl must be a positive integer number of milliseconds, got '${value}'`);
  return ms;
}

function parseService(value: string): string {
  const invalid = invalidServiceName(value);
  if (invalid) throw new InvalidArgumentError(`--service must be a key-safe name, got '${value}': ${invalid}`);
  return value;
}

function parseConcurrency(value: string): number {
  if (value === 'auto') return autoConcurrency();
  const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1)
    throw new InvalidArgumentError(`--concurrency must be a positive integer or 'auto', got '${value}'`);
  return n;
}

function parseMaxFileSize(value: string): number {
  try {
    return parseFileSize(value);
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

function summary(report: CodemodReport, options: CliOptions): string {
  const lines: string[] = [];
  const verb = options.check ? 'would change' : options.dryRun ? 'would change' : 'changed';
  lines.push(
    `replica-codemod: ${plural(report.filesScanned, 'file')} scanned, ${report.filesChanged} ${verb}, ${plural(report.findingsFixed, 'finding')} fixed, ${plural(report.manual.length, 'manual follow-up')}${report.skipped.length ? `, ${report.skipped.length} skipped` : ''}${report.errors.length ? `, ${plural(report.errors.length, 'file')} failed` : ''}`,
  );
  if (report.manual.length > 0) {
    lines.push(pc.yellow('manual follow-ups:'));
    for (const m of report.manual) lines.push(`  ${m.file}:${m.line}: ${m.reason} (${m.transform})`);
  }
  for (const note of report.notes) lines.push(`note: ${note}`);
  if (report.leaseKeys.length > 0) {
    lines.push(`lease keys ${options.check || options.dryRun ? 'to write' : 'written'} (one per job):`);
    for (const k of report.leaseKeys) lines.push(`  ${k.key}  ${k.file}:${k.line}`);
  }
  // Left alone on purpose (too large, generated, not UTF-8, ignored by the ESLint config, a symlink out of the root): not errors.
  if (report.skipped.length > 0) {
    lines.push(pc.yellow('skipped (left as they are):'));
    for (const s of report.skipped) lines.push(`  ${s.file}: ${s.reason}`);
  }
  if (report.errors.length > 0) {
    lines.push(pc.red('failed (skipped):'));
    for (const e of report.errors) lines.push(`  ${e.file}: ${e.message}`);
  }
  if (options.check && report.filesChanged > 0) {
    lines.push(`--check: ${plural(report.filesChanged, 'file')} would change: ${report.changes.map((c) => c.file).join(', ')}`);
  } else if (options.dryRun) {
    lines.push('dry run: nothing written');
  }
  return lines.join('\n');
}

/** The `--json` report: everything but the file texts. */
export function jsonReport(report: CodemodReport): Record<string, unknown> {
  return {
    transforms: report.transforms,
    filesScanned: report.filesScanned,
    filesChanged: report.filesChanged,
    findingsFixed: report.findingsFixed,
    changed: report.changes.map((c) => ({ file: c.file, findingsFixed: c.fixed })),
    manual: report.manual,
    leaseKeys: report.leaseKeys,
    notes: report.notes,
    errors: report.errors,
    skipped: report.skipped,
    written: report.written,
  };
}

function progressBar(stream: NodeJS.WriteStream): (done: number, total: number, file: string) => void {
  return (done, total, file) => {
    const width = 24;
    const filled = total === 0 ? width : Math.round((done / total) * width);
    const bar = pc.green('█'.repeat(filled)) + pc.dim('░'.repeat(width - filled));
    const name = file.length > 50 ? `…${file.slice(-49)}` : file;
    stream.write(`\r\x1b[K${bar} ${done}/${total} ${pc.dim(name)}`);
    if (done === total) stream.write('\r\x1b[K');
  };
}

// `--help` examples: the everyday runs, the CI gate and a first run without installing.
const HELP_EXAMPLES = `Examples:
  replica-codemod --dry-run src/                        show the diff, write nothing
  replica-codemod src/                                  rewrite (refuses a dirty git tree without --force)
  replica-codemod --transform guard-schedules src/jobs  only guard schedules, only under src/jobs
  replica-codemod --check src/                          CI gate: exit 1 if anything would change
  replica-codemod --json --check src/ > report.json     the report as JSON (docs/ci.md)
  npx -p replica-guard -p eslint -p @typescript-eslint/parser -p typescript replica-codemod --dry-run src/
                                                        a first run without installing (docs: README, Install)`;

export function buildProgram(): Command {
  const names = transforms.map((t) => `  ${t.name.padEnd(18)} ${t.description} (rule: ${t.rule.name})`).join('\n');
  return new Command('replica-codemod')
    .description('Rewrite what the replica-guard rules find into guard calls (claimPeriod, setLeaseClient).')
    .version(PLUGIN_VERSION)
    .argument('[paths...]', 'files or directories to rewrite', ['.'])
    .option('--dry-run', 'print a unified diff and write nothing')
    .option('--check', 'write nothing; exit 1 if any file would change (for CI)')
    .option('--transform <names>', 'comma-separated transforms to run (default: all)')
    .option('--json', 'print a machine-readable report on stdout')
    .option(
      '--service <name>',
      'the <service> in lease keys, letters, digits, . _ - (default: nearest package.json name, scope stripped, else the directory name)',
      parseService,
    )
    .option('--force', 'write even when the git tree has uncommitted changes')
    .option('--ttl <ms>', 'lease ttl in ms for runExclusive rewrites (default: 60000)', parseTtl)
    .option(
      '--concurrency <n>',
      `threads for parsing and rewriting (this one + n-1 workers), or 'auto' = the idle cores, at most 8 (default: 1; under ${MIN_FILES_FOR_WORKERS} files always 1)`,
      parseConcurrency,
    )
    .option(
      '--max-file-size <size>',
      "skip files larger than this, never read or parsed: bytes, or with kb / mb (1024-based); 0 or 'none' = no limit (default: 1mb)",
      parseMaxFileSize,
    )
    .option(
      '--include-generated',
      'also rewrite files whose header marks them generated (@generated, Code generated … DO NOT EDIT, auto-generated)',
    )
    .addOption(new Option('--no-progress', 'no progress bar even on a TTY').hideHelp())
    .addHelpText(
      'after',
      `\nTransforms:\n${names}\n\n${HELP_EXAMPLES}\n\nExit codes: 0 done, 1 --check found work or a file failed, 2 usage or fatal error.`,
    )
    .showHelpAfterError()
    .exitOverride();
}

export async function main(argv: readonly string[], io = { stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  const program = buildProgram();
  program.configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) });
  try {
    program.parse(argv as string[], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    throw error;
  }
  const options = program.opts<CliOptions & { progress?: boolean }>();
  const paths = program.processedArgs[0] as string[];
  try {
    const selected = findTransforms(
      options.transform
        ?.split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    );
    const engine = new Engine(selected, { service: options.service, ttlMs: options.ttl });
    const tty = Boolean(io.stderr.isTTY) && !options.json && options.progress !== false;
    const report = await engine.run({
      paths,
      cwd: process.cwd(),
      dryRun: options.dryRun,
      check: options.check,
      force: options.force,
      concurrency: options.concurrency,
      maxFileSize: options.maxFileSize,
      includeGenerated: options.includeGenerated,
      onProgress: tty ? progressBar(io.stderr) : undefined,
    });
    if (options.json) {
      io.stdout.write(`${JSON.stringify(jsonReport(report), null, 2)}\n`);
    } else {
      if (options.dryRun && report.changes.length > 0) io.stdout.write(formatDiff(report.changes));
      io.stdout.write(`${summary(report, options)}\n`);
    }
    if (report.errors.length > 0) return 1;
    if (options.check && report.filesChanged > 0) return 1;
    return 0;
  } catch (error) {
    if (error instanceof UnknownTransformError || error instanceof CodemodUsageError || error instanceof PathNotFoundError) {
      io.stderr.write(`replica-codemod: ${error.message}\n`);
      return 2;
    }
    io.stderr.write(`replica-codemod: fatal: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return 2;
  }
}

// Run when executed (node codemods/cli.ts, dist/cli.js, the npm bin), not when imported by tests.
const invoked = process.argv[1] ?? '';
if (/(?:^|[\\/])(?:cli\.(?:ts|js|mjs)|replica-codemod)$/.test(invoked)) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`replica-codemod: fatal: ${String(error)}\n`);
      process.exitCode = 2;
    },
  );
}
