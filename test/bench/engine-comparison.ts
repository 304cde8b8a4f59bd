// ESLint and oxlint side by side on the same files, each running only this plugin's rules (the
// `recommended` rules; ESLint with @typescript-eslint/parser for TypeScript, as users run it):
// wall time, CPU (user + system) and peak memory of each whole process, measured from inside the
// process by a preloaded module, so the numbers cover exactly one engine run.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export interface EngineRun {
  engine: 'eslint' | 'oxlint';
  wallMs: number;
  cpuMs: number;
  peakMb: number;
  findings: number;
}

const MEASURE = `
const started = performance.now();
process.on('exit', () => {
  const usage = process.resourceUsage();
  process.stderr.write('\\n@@usage ' + JSON.stringify({ wallMs: performance.now() - started, cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000, peakMb: usage.maxRSS / 1024 }) + '\\n');
});
`;

function run(args: string[], cwd: string, measure: string): { stdout: string; usage: Omit<EngineRun, 'engine' | 'findings'> } {
  let stdout = '';
  let stderr = '';
  try {
    stdout = execFileSync(process.execPath, ['--import', measure, ...args], {
      cwd,
      encoding: 'utf8',
      maxBuffer: 1 << 28,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    stdout = failed.stdout ?? '';
    stderr = failed.stderr ?? '';
  }
  const line = (stderr || '').split('\n').find((l) => l.startsWith('@@usage '));
  return { stdout, usage: line ? JSON.parse(line.slice('@@usage '.length)) : { wallMs: NaN, cpuMs: NaN, peakMb: NaN } };
}

/** One ESLint run and one oxlint run of the plugin over `dir`. */
export function compareEngines(dir: string, repo = resolve('.')): EngineRun[] {
  const work = mkdtempSync(join(tmpdir(), 'rg-engines-'));
  try {
    const measure = join(work, 'measure.mjs');
    writeFileSync(measure, MEASURE);
    const plugin = join(repo, 'dist', 'eslint-plugin.js');
    const eslintConfig = join(work, 'eslint.config.mjs');
    writeFileSync(
      eslintConfig,
      `import tsParser from ${JSON.stringify(join(repo, 'node_modules/@typescript-eslint/parser/dist/index.js'))};
import plugin from ${JSON.stringify(plugin)};
export default [
  { files: ['**/*.{ts,mts,cts}'], languageOptions: { parser: tsParser } },
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs' } },
  { linterOptions: { reportUnusedDisableDirectives: 'off', reportUnusedInlineConfigs: 'off' } },
  plugin.configs.recommended,
];\n`,
    );
    const page = readFileSync(join(repo, 'docs', 'oxlint.md'), 'utf8');
    const oxlintrc = JSON.parse(/<!-- oxlintrc -->\s*```json\n([\s\S]*?)```/.exec(page)![1]!) as { jsPlugins: string[] };
    oxlintrc.jsPlugins = [plugin];
    writeFileSync(join(work, '.oxlintrc.json'), JSON.stringify(oxlintrc));

    const eslint = run(
      [join(repo, 'node_modules/eslint/bin/eslint.js'), '-c', eslintConfig, '-f', 'json', '--no-warn-ignored', '.'],
      dir,
      measure,
    );
    const eslintFindings = (JSON.parse(eslint.stdout || '[]') as { messages: { ruleId: string | null }[] }[])
      .flatMap((r) => r.messages)
      .filter((m) => m.ruleId?.startsWith('replica-guard/')).length;
    const oxlint = run(
      [join(repo, 'node_modules/oxlint/bin/oxlint'), '-c', join(work, '.oxlintrc.json'), '--format', 'json', '.'],
      dir,
      measure,
    );
    const oxlintFindings = (JSON.parse(oxlint.stdout || '{"diagnostics":[]}') as { diagnostics: { code?: string }[] }).diagnostics.filter(
      (d) => d.code?.startsWith('replica-guard('),
    ).length;
    return [
      { engine: 'eslint', ...eslint.usage, findings: eslintFindings },
      { engine: 'oxlint', ...oxlint.usage, findings: oxlintFindings },
    ];
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
