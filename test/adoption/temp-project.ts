// Fresh projects in temp dirs, as a user would have them: files written out, packages linked from
// this repository's node_modules (no network), commands run in a clean environment.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

export const repoRoot = resolve(import.meta.dirname, '..', '..');
const repoModules = join(repoRoot, 'node_modules');

/** The tests read the BUILT package, as users get it; `npm test` builds before vitest. */
export function requireBuild(): void {
  for (const file of ['dist/index.js', 'dist/index.cjs', 'dist/eslint-plugin.js', 'dist/bin.js']) {
    if (!existsSync(join(repoRoot, file))) throw new Error(`${file} does not exist: run \`npm run build\` (npm test builds before vitest)`);
  }
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `replica-guard-${prefix}-`));
}

export function writeFiles(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

/** `node_modules/<name>` → `target` (a scoped name gets its scope folder). */
export function linkPackage(nodeModules: string, name: string, target = join(repoModules, name)): void {
  if (!existsSync(target)) throw new Error(`${name} is not installed in this repository (${target})`);
  mkdirSync(dirname(join(nodeModules, name)), { recursive: true });
  symlinkSync(target, join(nodeModules, name), 'dir');
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node <args>` in `cwd` without the test runner's loaders or options. */
export function runNode(args: readonly string[], cwd: string): RunResult {
  const result = spawnSync(process.execPath, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '', FORCE_COLOR: '0', NO_COLOR: '1' },
    timeout: 120_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

interface LintMessage {
  ruleId: string | null;
  line: number;
  column: number;
  fatal?: boolean;
  message: string;
}

export interface LintedFile {
  file: string;
  messages: LintMessage[];
}

/** `eslint --format json <paths>` with the project's own eslint, files relative to `cwd`. */
export function lint(cwd: string, paths: readonly string[] = ['.']): LintedFile[] {
  const result = runNode([join(cwd, 'node_modules/eslint/bin/eslint.js'), '--format', 'json', ...paths], cwd);
  if (result.code !== 0 && result.code !== 1) throw new Error(`eslint exited ${result.code}: ${result.stderr}`);
  const files = JSON.parse(result.stdout) as Array<{ filePath: string; messages: LintMessage[] }>;
  return files.map((f) => ({ file: f.filePath.slice(cwd.length + 1).replace(/\\/g, '/'), messages: f.messages }));
}

/** The findings of the plugin's rules, `file:line:column rule` (sorted), and every fatal message. */
export function summarize(files: readonly LintedFile[]): { findings: string[]; fatal: string[] } {
  const findings: string[] = [];
  const fatal: string[] = [];
  for (const { file, messages } of files) {
    for (const m of messages) {
      if (m.fatal) fatal.push(`${file}:${m.line}: ${m.message}`);
      else if (m.ruleId?.startsWith('replica-guard/')) findings.push(`${file}:${m.line}:${m.column} ${m.ruleId}`);
    }
  }
  return { findings: findings.sort(), fatal };
}

/** The fenced block that follows `<!-- readme-config: <name> -->` in README.md. */
export function readmeBlock(name: string): string {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const marker = `<!-- readme-config: ${name} -->`;
  const at = readme.indexOf(marker);
  if (at < 0) throw new Error(`README.md has no ${marker}`);
  const block = /^```\w*\n([\s\S]*?)^```/m.exec(readme.slice(at + marker.length));
  if (!block) throw new Error(`README.md: no fenced block after ${marker}`);
  return block[1]!;
}
