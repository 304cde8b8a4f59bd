// docs/ci.md's lint step, run as CI runs it: `eslint --format @microsoft/eslint-formatter-sarif`
// in a fresh service (the plugin built, the formatter and eslint from its node_modules). The SARIF
// log must have the shape GitHub code scanning takes: version 2.1.0, our rules in
// runs[0].tool.driver.rules, and each result with its ruleId and a region at the finding.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { linkPackage, readmeBlock, repoRoot, requireBuild, runNode, tempDir, writeFiles } from './temp-project.js';

interface SarifLog {
  version: string;
  $schema: string;
  runs: Array<{
    tool: { driver: { name: string; rules: Array<{ id: string; helpUri?: string; shortDescription?: { text: string } }> } };
    results: Array<{
      ruleId: string;
      ruleIndex: number;
      level: string;
      message: { text: string };
      locations: Array<{ physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number; startColumn: number } } }>;
    }>;
  }>;
}

const SERVICE: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'ledger', private: true, type: 'module' }),
  'src/close-books.js': [
    "import cron from 'node-cron';",
    "import pg from 'pg';",
    '',
    'const pool = new pg.Pool();',
    '',
    "cron.schedule('0 2 * * *', async () => {",
    "  await pool.query('select pg_advisory_lock(7001)');",
    "  await pool.query('insert into ledger_closings (day) values (current_date)');",
    "  await pool.query('select pg_advisory_unlock(7001)');",
    '});',
    '',
  ].join('\n'),
};

let root = '';
beforeAll(requireBuild);
afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

test('the SARIF log names our rules and locates every finding', () => {
  root = tempDir('sarif');
  writeFiles(root, { ...SERVICE, 'eslint.config.js': readmeBlock('javascript') });
  const nodeModules = join(root, 'node_modules');
  linkPackage(nodeModules, 'eslint');
  linkPackage(nodeModules, '@microsoft/eslint-formatter-sarif');
  linkPackage(nodeModules, 'replica-guard', repoRoot);

  const eslint = runNode(
    [join(nodeModules, 'eslint/bin/eslint.js'), '--format', '@microsoft/eslint-formatter-sarif', '--output-file', 'eslint.sarif', 'src'],
    root,
  );
  expect(eslint.stderr).toBe('');
  expect(eslint.code).toBe(1); // findings: the CI step fails, the upload step still runs (docs/ci.md)

  const log = JSON.parse(readFileSync(join(root, 'eslint.sarif'), 'utf8')) as SarifLog;
  expect(log.version).toBe('2.1.0');
  expect(log.$schema).toMatch(/sarif-2\.1\.0/);
  expect(log.runs).toHaveLength(1);
  const [run] = log.runs;
  expect(run!.tool.driver.name).toBe('ESLint');

  const rules = run!.tool.driver.rules;
  expect(rules.map((r) => r.id).sort()).toEqual(['replica-guard/no-session-advisory-lock', 'replica-guard/no-unguarded-schedule']);
  for (const rule of rules) {
    expect(rule.helpUri).toBe(`https://github.com/replica-guard/replica-guard/blob/main/docs/rules/${rule.id.split('/')[1]}.md`);
    expect(rule.shortDescription?.text).toBeTruthy();
  }

  const results = run!.results.map((r) => {
    const [location] = r.locations;
    const { artifactLocation, region } = location!.physicalLocation;
    expect(rules[r.ruleIndex]!.id).toBe(r.ruleId);
    expect(r.message.text).toBeTruthy();
    return `${artifactLocation.uri.replace(/^.*\/src\//, 'src/')}:${region.startLine}:${region.startColumn} ${r.level} ${r.ruleId}`;
  });
  // The advisory-lock findings sit on the SQL function name inside the string.
  expect(results.sort()).toEqual([
    'src/close-books.js:6:28 error replica-guard/no-unguarded-schedule',
    'src/close-books.js:7:28 error replica-guard/no-session-advisory-lock',
    'src/close-books.js:9:28 error replica-guard/no-session-advisory-lock',
  ]);
});
