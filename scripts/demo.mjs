// `npm run demo`: lint examples/billing-service with the replica-guard plugin, run replica-codemod
// on a temp copy of it, print the diff, and lint the copy again. Runs the TypeScript sources
// through tsx, so it works on a fresh checkout without a build.
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register();
const pc = (await import('picocolors')).default;
const { ESLint } = await import('eslint');
const plugin = (await import('../rules/index.ts')).default;
const { runCodemod, formatDiff } = await import('../codemods/index.ts');

const root = fileURLToPath(new URL('..', import.meta.url));
const example = join(root, 'examples', 'billing-service');
const copy = join(mkdtempSync(join(tmpdir(), 'replica-guard-demo-')), 'billing-service');
cpSync(example, copy, { recursive: true, filter: (source) => !source.includes('node_modules') });

const heading = (text) => console.log(`\n${pc.bold(pc.cyan(`▌ ${text}`))}\n`);

// The same as the example's eslint.config.js (`[replicaGuard.configs.recommended]`), with the
// plugin loaded from source instead of the built package.
const eslint = new ESLint({
  cwd: copy,
  overrideConfigFile: true,
  overrideConfig: [plugin.configs.recommended, { languageOptions: { ecmaVersion: 'latest', sourceType: 'module' } }],
});
const stylish = await eslint.loadFormatter('stylish');
const lint = async () => {
  const results = await eslint.lintFiles(['src']);
  return { results, problems: results.reduce((n, r) => n + r.errorCount + r.warningCount, 0), text: await stylish.format(results) };
};

heading(`1. eslint with replica-guard/recommended on ${relative(root, example)}`);
const before = await lint();
console.log(before.text.trim() || pc.green('no problems'));

heading('2. npx replica-codemod src   (on a temp copy)');
const report = await runCodemod({ cwd: copy, paths: ['src'] });
const diff = formatDiff(report.changes)
  .split('\n')
  .map((line) =>
    line.startsWith('+') && !line.startsWith('+++')
      ? pc.green(line)
      : line.startsWith('-') && !line.startsWith('---')
        ? pc.red(line)
        : line,
  )
  .join('\n');
console.log(diff);
console.log(
  `${report.filesScanned} files scanned, ${report.filesChanged} changed, ${report.findingsFixed} findings fixed, ${report.manual.length} manual follow-ups`,
);
for (const m of report.manual) console.log(pc.yellow(`  manual: ${m.file}:${m.line}: ${m.reason}`));
for (const e of report.errors) console.log(pc.red(`  failed: ${e.file}: ${e.message}`));

heading('3. eslint again, after the codemod');
const after = await lint();
console.log(after.text.trim() || pc.green('no problems'));

console.log(`\n${pc.bold(`${before.problems} problem(s) before, ${after.problems} after.`)} The rewritten copy is in ${copy}`);
console.log(`Run 3 replicas of it before and after: npx vitest run --project servers test/e2e/billing-service.test.ts`);
// The demo fails loudly if it stops demonstrating anything.
if (before.problems === 0 || after.problems > 0 || report.errors.length > 0) process.exitCode = 1;
