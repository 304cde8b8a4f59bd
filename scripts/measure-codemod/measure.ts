// Measures the codemod on a tree of service files it has never seen: copy the tree into a temp
// git repository, lint it (findings per rule), run the codemod, lint again, and answer per family
// — findings before, removed, left under a `// replica-guard: manual — <why>` marker, left without
// one — with the checks a team needs before merging: every output parses, no literal text changed
// (SQL rewritten on purpose by the SQL transforms is counted apart), no two jobs share a lease key,
// and a second run changes nothing. Used by `npm run measure:codemod` and by
// test/codemods/unseen.test.ts (the same figures, asserted).
import tsParser from '@typescript-eslint/parser';
import { diffArrays } from 'diff';
import { Linter } from 'eslint';
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, extname, join, relative } from 'node:path';
import { runCodemod, type CodemodReport } from '../../codemods/index.js';
import plugin from '../../rules/index.js';
import { markerAnchor } from '../../codemods/engine/literal-invariant.js';
import { markerAbove } from '../../codemods/engine/manual-marker.js';

export interface Family {
  /** Folder under the cases root. */
  name: string;
  rule: string;
  transform: string;
  /** Share of the findings the codemod must remove (the rest marked manual with a reason). */
  threshold: number;
  /** Its rewrites change SQL inside literals on purpose. */
  rewritesSql: boolean;
}

export const FAMILIES: readonly Family[] = [
  { name: 'schedule', rule: 'no-unguarded-schedule', transform: 'guard-schedules', threshold: 0.95, rewritesSql: false },
  { name: 'advisory-lock', rule: 'no-session-advisory-lock', transform: 'advisory-lock-to-lease', threshold: 0.6, rewritesSql: true },
  { name: 'counters', rule: 'no-read-then-write', transform: 'atomic-counters', threshold: 0.6, rewritesSql: true },
  { name: 'migrations', rule: 'no-in-app-migrations', transform: 'extract-migrations', threshold: 0.85, rewritesSql: false },
  { name: 'jetstream', rule: 'require-jetstream-msg-id', transform: 'jetstream-msg-id', threshold: 0.5, rewritesSql: false },
];

/** Per family: what the rule found before, what the codemod removed, and what it left. */
export interface FamilyCounts {
  family: string;
  before: number;
  removed: number;
  manualWithReason: number;
  manualWithoutReason: number;
  /** Findings left without a marker, for the reader (`file:line`). */
  unexplained: string[];
}

/** One run of the codemod over a repository: the counts per family and the merge checks. */
export interface RunResult {
  files: number;
  families: FamilyCounts[];
  /** Files the codemod changed or created that do not parse. */
  unparsable: string[];
  /** Files that did not parse before the run (left out of the counts). */
  inputUnparsable: string[];
  /** Literal text changed that no transform declares (`file:line before → after`). */
  literalsChanged: string[];
  /** SQL literals rewritten on purpose (counters, advisory locks). */
  sqlRewritten: number;
  /** Lease keys written twice (`key: file, file`). */
  sharedKeys: string[];
  leaseKeys: number;
  filesChanged: number;
  filesCreated: number;
  /** Files a second run would change. */
  secondRunChanged: string[];
  errors: string[];
}

/** The measure of one family alone (the unseen cases). */
export type FamilyResult = RunResult & FamilyCounts;

const SOURCE = /\.(?:[cm]?[jt]s|[jt]sx)$/;

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (name === 'node_modules' || name === '.git') return [];
    const path = join(dir, name);
    // A dangling symbolic link (a checkout's `.dockerignore` pointing outside it) is no file to measure.
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat) return [];
    return stat.isDirectory() ? walk(path) : [path];
  });
}

/** The rules' findings in one file: `[rule, line, endLine]`. Throws when the file does not parse. */
function lint(
  linter: Linter,
  rules: readonly string[],
  path: string,
  text: string,
): Array<{ rule: string; line: number; marker: string | undefined }> {
  // A `.js` file that requires and neither imports nor exports is CommonJS (as the engine reads it).
  const commonjs =
    extname(path) === '.cjs' || (extname(path) === '.js' && /\brequire\(/.test(text) && !/^\s*(?:import|export)\s/m.test(text));
  const sourceType = commonjs ? 'commonjs' : 'module';
  const messages = linter.verify(
    text,
    [
      {
        files: ['**/*.{ts,tsx,mts,cts,js,mjs,cjs,jsx}'],
        plugins: { 'replica-guard': plugin as never },
        rules: Object.fromEntries(rules.map((rule) => [`replica-guard/${rule}`, 'error'])),
        linterOptions: { reportUnusedDisableDirectives: 'off', reportUnusedInlineConfigs: 'off' },
        languageOptions: {
          parser: tsParser as unknown as Linter.Parser,
          ecmaVersion: 'latest',
          sourceType,
          parserOptions: { ecmaFeatures: { jsx: /x$/.test(path) } },
        },
      },
    ],
    { filename: path },
  );
  const fatal = messages.find((m) => m.fatal);
  if (fatal) throw new Error(`${path}:${fatal.line} does not parse: ${fatal.message}`);
  const sourceCode = linter.getSourceCode();
  return messages.flatMap((m) => {
    if (!m.ruleId?.startsWith('replica-guard/')) return [];
    // The marker sits above the statement (or member) holding the finding, as the engine puts it.
    const offset = sourceCode.getIndexFromLoc({ line: m.line, column: m.column - 1 });
    const marker = markerAbove(text, markerAnchor(sourceCode as never, offset)) ?? markerAbove(text, offset);
    return [{ rule: m.ruleId.slice('replica-guard/'.length), line: m.line, marker }];
  });
}

interface Token {
  type: string;
  value: string;
  line: number;
}

function tokens(path: string, text: string): Token[] | undefined {
  try {
    const ast = tsParser.parse(text, { range: true, loc: true, tokens: true, comment: false, jsx: /x$/.test(path) }) as unknown as {
      tokens: Array<{ type: string; value: string; loc: { start: { line: number } } }>;
    };
    return ast.tokens.map((t) => ({ type: t.type, value: t.value, line: t.loc.start.line }));
  } catch {
    return undefined;
  }
}

const isLiteral = (t: Token): boolean => t.type === 'String' || t.type === 'Template';
const SQL = /\b(?:select|update|insert|delete|set|where|pg_\w+)\b/i;

/** Longest common prefix plus suffix, over the shorter length: how much of a literal survived its edit. */
function kept(quotedA: string, quotedB: string): number {
  const a = unquote(quotedA);
  const b = unquote(quotedB);
  if (Math.min(a.length, b.length) < 3) return 0;
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix += 1;
  let suffix = 0;
  while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix += 1;
  return (prefix + suffix) / Math.min(a.length, b.length);
}

const unquote = (value: string): string => value.replace(/^['"`}]|['"`]$|\$\{$/g, '');

/**
 * Literal tokens changed between two texts: a token diff pairs each replaced run; a literal
 * removed from a run and one inserted into it that share most of their text (a prefix plus a
 * suffix of at least half) is one literal edited. Removed literals and newly written ones are not.
 */
export function changedLiterals(before: Token[], after: Token[]): Array<{ line: number; before: string; after: string }> {
  const changes: Array<{ line: number; before: string; after: string }> = [];
  const parts = diffArrays(before, after, { comparator: (a, b) => a.type === b.type && a.value === b.value });
  for (let i = 0; i < parts.length; i += 1) {
    const part = parts[i]!;
    if (!part.removed) continue;
    const next = parts[i + 1];
    const inserted = next?.added ? next.value.filter(isLiteral) : [];
    for (const old of part.value.filter(isLiteral)) {
      const edited = inserted.find((t) => kept(old.value, t.value) >= 0.5);
      if (edited) changes.push({ line: old.line, before: old.value, after: edited.value });
    }
  }
  return changes;
}

const KEY_CALL = /\b(?:claimPeriod|claimOnce|runExclusive|runOnce)\(\s*(['"`])([^'"`$]+)\1/g;

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function initRepo(dir: string): void {
  git(dir, 'init', '-q');
  git(dir, 'config', 'user.email', 'measure@example.com');
  git(dir, 'config', 'user.name', 'measure');
  git(dir, 'config', 'commit.gpgsign', 'false');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'before');
}

/** Copies `source` to a temp git repository, measures `family` there, and removes it. */
export async function measureTree(source: string, family: Family): Promise<FamilyResult> {
  const dir = mkdtempSync(join(tmpdir(), `measure-${family.name}-`));
  try {
    cpSync(source, dir, { recursive: true });
    initRepo(dir);
    const result = await measureRepo(dir, [family]);
    return { ...result, ...result.families[0]! };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const message = (error: unknown): string => String(error instanceof Error ? error.message : error);

/** Runs the families' transforms in a git repository with a clean tree (it is changed and committed to) and measures the run. */
export async function measureRepo(dir: string, families: readonly Family[]): Promise<RunResult> {
  const linter = new Linter({ configType: 'flat', cwd: dir });
  const rules = families.map((f) => f.rule);
  const transforms = families.map((f) => f.transform);
  const sources = walk(dir).filter((p) => SOURCE.test(p));
  const beforeText = new Map(sources.map((p) => [p, readFileSync(p, 'utf8')]));
  const counts = new Map<string, FamilyCounts>(
    families.map((f) => [f.rule, { family: f.name, before: 0, removed: 0, manualWithReason: 0, manualWithoutReason: 0, unexplained: [] }]),
  );
  const result: RunResult = {
    files: sources.length,
    families: [...counts.values()],
    unparsable: [],
    inputUnparsable: [],
    literalsChanged: [],
    sqlRewritten: 0,
    sharedKeys: [],
    leaseKeys: 0,
    filesChanged: 0,
    filesCreated: 0,
    secondRunChanged: [],
    errors: [],
  };
  for (const [path, text] of beforeText) {
    try {
      for (const finding of lint(linter, rules, path, text)) counts.get(finding.rule)!.before += 1;
    } catch {
      result.inputUnparsable.push(relative(dir, path));
      beforeText.delete(path);
    }
  }

  const report: CodemodReport = await runCodemod({ cwd: dir, transforms });
  result.errors.push(...report.errors.map((e) => `${e.file}: ${e.message}`));
  const rewritesSql = families.some((f) => f.rewritesSql);
  const after = new Map<string, number>();
  const keys = new Map<string, string[]>();
  for (const path of walk(dir).filter((p) => SOURCE.test(p))) {
    const file = relative(dir, path);
    if (result.inputUnparsable.includes(file)) continue;
    const text = readFileSync(path, 'utf8');
    const old = beforeText.get(path);
    if (old !== text) {
      if (old === undefined) result.filesCreated += 1;
      else result.filesChanged += 1;
      const afterTokens = tokens(path, text);
      if (!afterTokens) {
        result.unparsable.push(file);
        continue;
      }
      const beforeTokens = old === undefined ? undefined : tokens(path, old);
      for (const change of beforeTokens ? changedLiterals(beforeTokens, afterTokens) : []) {
        if (rewritesSql && SQL.test(change.before) && SQL.test(change.after)) result.sqlRewritten += 1;
        else result.literalsChanged.push(`${file}:${change.line} ${change.before} → ${change.after}`);
      }
    }
    for (const match of text.matchAll(KEY_CALL)) keys.set(match[2]!, [...(keys.get(match[2]!) ?? []), file]);
    let findings: Array<{ rule: string; line: number; marker: string | undefined }> = [];
    try {
      findings = lint(linter, rules, path, text);
    } catch (error) {
      result.errors.push(message(error));
    }
    for (const finding of findings) {
      const family = counts.get(finding.rule)!;
      after.set(finding.rule, (after.get(finding.rule) ?? 0) + 1);
      if (finding.marker) family.manualWithReason += 1;
      else {
        family.manualWithoutReason += 1;
        family.unexplained.push(`${file}:${finding.line}`);
      }
    }
  }
  for (const [rule, family] of counts) family.removed = family.before - (after.get(rule) ?? 0);
  result.leaseKeys = [...keys.values()].reduce((n, files) => n + files.length, 0);
  result.sharedKeys = [...keys].filter(([, files]) => files.length > 1).map(([key, files]) => `${key}: ${files.join(', ')}`);

  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '--allow-empty', '-m', 'codemod');
  const again = await runCodemod({ cwd: dir, transforms });
  result.secondRunChanged = again.changes.map((c) => c.file);
  return result;
}

/** One line per family for the terminal. */
export function formatResult(r: FamilyResult, family: Family): string {
  const share = r.before === 0 ? 1 : r.removed / r.before;
  const pass = share >= family.threshold;
  return [
    `${r.family.padEnd(14)} files ${String(r.files).padStart(3)}  findings ${String(r.before).padStart(3)}  removed ${String(r.removed).padStart(3)} (${(share * 100).toFixed(0)} %, need ${(family.threshold * 100).toFixed(0)} % ${pass ? 'ok' : 'BELOW'})`,
    `  manual with a reason ${r.manualWithReason}, without ${r.manualWithoutReason}; unparsable ${r.unparsable.length}; literals changed ${r.literalsChanged.length} (SQL rewritten on purpose ${r.sqlRewritten}); lease keys ${r.leaseKeys}, shared ${r.sharedKeys.length}; second run changed ${r.secondRunChanged.length}; errors ${r.errors.length}`,
    ...[
      ...r.unexplained.map((u) => `  no reason: ${u}`),
      ...r.unparsable.map((u) => `  unparsable: ${u}`),
      ...r.literalsChanged.map((u) => `  literal: ${u}`),
      ...r.sharedKeys.map((u) => `  shared key: ${u}`),
      ...r.secondRunChanged.map((u) => `  second run: ${u}`),
      ...r.errors.map((u) => `  error: ${u}`),
    ],
  ].join('\n');
}

/**
 * Lays labelled real files out at their real paths, one directory (and git repository) per source
 * repository, as the real-code scorer does: `<root>/<owner>__<repo>/<path>`. Returns the directories.
 */
export function layOutRealCode(manifest: string, filesDir: string, root: string): string[] {
  const names = readdirSync(filesDir);
  const repos = new Set<string>();
  for (const row of readFileSync(manifest, 'utf8').trim().split('\n').slice(1)) {
    const [id, repo, , path] = row.split('\t');
    const source = names.find((n) => n.startsWith(`${id}__`));
    if (!id || !repo || !path || !source) continue;
    const dir = join(root, repo.replace('/', '__'));
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    copyFileSync(join(filesDir, source), join(dir, path));
    repos.add(dir);
  }
  for (const dir of repos) initRepo(dir);
  return [...repos].sort();
}

/** The sum of several runs (one per repository). */
export function sumRuns(runs: readonly RunResult[]): RunResult {
  const families = new Map<string, FamilyCounts>();
  for (const run of runs)
    for (const f of run.families) {
      const sum = families.get(f.family) ?? {
        family: f.family,
        before: 0,
        removed: 0,
        manualWithReason: 0,
        manualWithoutReason: 0,
        unexplained: [],
      };
      sum.before += f.before;
      sum.removed += f.removed;
      sum.manualWithReason += f.manualWithReason;
      sum.manualWithoutReason += f.manualWithoutReason;
      sum.unexplained.push(...f.unexplained);
      families.set(f.family, sum);
    }
  const all = <K extends keyof RunResult>(key: K): RunResult[K] => runs.flatMap((r) => r[key] as never) as never;
  const total = (key: 'sqlRewritten' | 'leaseKeys' | 'filesChanged' | 'filesCreated' | 'files'): number =>
    runs.reduce((n, r) => n + r[key], 0);
  return {
    files: total('files'),
    families: [...families.values()],
    unparsable: all('unparsable'),
    inputUnparsable: all('inputUnparsable'),
    literalsChanged: all('literalsChanged'),
    sqlRewritten: total('sqlRewritten'),
    sharedKeys: all('sharedKeys'),
    leaseKeys: total('leaseKeys'),
    filesChanged: total('filesChanged'),
    filesCreated: total('filesCreated'),
    secondRunChanged: all('secondRunChanged'),
    errors: all('errors'),
  };
}
