// docs/ci.md's JSON schema of `replica-codemod --json`, checked against a real report: the
// schema is read from the page (by its marker), so the page fails this test when the report and
// the page drift apart.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, expect, test } from 'vitest';
import { main } from '../../codemods/engine/cli.js';
import { repoRoot } from './temp-project.js';

interface Schema {
  type?: 'object' | 'array' | 'string' | 'integer' | 'boolean';
  required?: string[];
  properties?: Record<string, Schema>;
  items?: Schema;
}

/** Where `value` breaks `schema` (the subset of JSON Schema the page uses), `[]` when it fits. */
function violations(schema: Schema, value: unknown, at = '$'): string[] {
  const kind = Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : value === null ? 'null' : typeof value;
  if (schema.type && schema.type !== kind) return [`${at}: ${kind}, not ${schema.type}`];
  if (kind === 'array')
    return (value as unknown[]).flatMap((item, i) => (schema.items ? violations(schema.items, item, `${at}[${i}]`) : []));
  if (kind !== 'object') return [];
  const object = value as Record<string, unknown>;
  const out = (schema.required ?? []).filter((key) => !(key in object)).map((key) => `${at}.${key}: missing`);
  for (const key of Object.keys(object)) {
    const property = schema.properties?.[key];
    out.push(...(property ? violations(property, object[key], `${at}.${key}`) : [`${at}.${key}: not in the schema`]));
  }
  return out;
}

function schemaFromPage(): Schema {
  const page = readFileSync(join(repoRoot, 'docs', 'ci.md'), 'utf8');
  const after = page.slice(page.indexOf('<!-- ci-json-schema -->'));
  return JSON.parse(/```json\n([\s\S]*?)```/.exec(after)![1]!) as Schema;
}

const scratch = mkdtempSync(join(tmpdir(), 'replica-guard-ci-docs-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

test('a --check --json report fits the schema on docs/ci.md and exits 1 when there is work', async () => {
  writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'ledger', private: true }));
  writeFileSync(
    join(scratch, 'jobs.ts'),
    [
      "import { sendStatements } from './statements';",
      'setInterval(async () => {',
      '  await sendStatements();',
      '}, 86_400_000);',
      '',
    ].join('\n'),
  );
  writeFileSync(join(scratch, 'broken.ts'), 'setInterval(() => { flush( }, 1000);\n'); // passes the text pre-filter, fails to parse
  let stdout = '';
  const sink = new Writable({ write: (chunk, _encoding, done) => ((stdout += String(chunk)), done()) });
  const quiet = new Writable({ write: (_chunk, _encoding, done) => done() });
  const code = await main(['--json', '--check', scratch], { stdout: sink as never, stderr: quiet as never });

  const report = JSON.parse(stdout) as { filesChanged: number; errors: unknown[]; written: boolean };
  expect(violations(schemaFromPage(), report)).toEqual([]);
  expect([code, report.filesChanged, report.errors.length, report.written]).toEqual([1, 1, 1, false]);
});
