// The plugin under both ESLint majors it supports (9 and 10), with @typescript-eslint/parser for
// TypeScript and ESLint's default parser (espree) for plain JavaScript: same findings everywhere.
import * as tsParser from '@typescript-eslint/parser';
import { Linter as Linter9 } from 'eslint';
import { Linter as Linter10 } from 'eslint-v10';
import { describe, expect, test } from 'vitest';
import plugin from '../../rules/index.js';

const source = [
  "import { connect } from 'nats';",
  "import { DataSource } from 'typeorm';",
  "import pg from 'pg';",
  'const pool = new pg.Pool();',
  "export const dataSource = new DataSource({ type: 'postgres', synchronize: true });",
  'setInterval(async () => {',
  "  await pool.query('SELECT pg_try_advisory_lock(42); UPDATE jobs SET ran_at = now()');",
  '}, 60_000);',
  'export async function publish(data) {',
  '  const nc = await connect();',
  '  const js = nc.jetstream();',
  "  await js.publish('orders.created', data);",
  '}',
  '',
].join('\n');

const expected = [
  { ruleId: 'replica-guard/no-in-app-migrations', line: 5 },
  { ruleId: 'replica-guard/no-unguarded-schedule', line: 6 },
  { ruleId: 'replica-guard/no-session-advisory-lock', line: 7 },
  { ruleId: 'replica-guard/require-jetstream-msg-id', line: 12 },
];

type AnyLinter = {
  verify(
    text: string,
    config: unknown,
    options: { filename: string },
  ): Array<{ ruleId: string | null; line: number; fatal?: boolean; message: string }>;
};

const linters: Array<[string, () => AnyLinter]> = [
  ['ESLint 9', () => new Linter9({ configType: 'flat' }) as unknown as AnyLinter],
  ['ESLint 10', () => new Linter10() as unknown as AnyLinter],
];

describe.each(linters)('%s', (_, makeLinter) => {
  test.each([
    ['TypeScript with @typescript-eslint/parser', 'service.ts', { parser: tsParser }],
    ['JavaScript with espree', 'service.js', {}],
  ])('%s reports every rule at its line', (_name, filename, languageOptions) => {
    const messages = makeLinter().verify(
      source.replace('publish(data)', filename.endsWith('.ts') ? 'publish(data: Uint8Array)' : 'publish(data)'),
      [{ ...plugin.configs.recommended, languageOptions: { ...languageOptions, ecmaVersion: 'latest', sourceType: 'module' } }],
      { filename },
    );
    expect(messages.filter((m) => m.fatal)).toEqual([]);
    const found = messages.map((m) => ({ ruleId: m.ruleId, line: m.line })).sort((a, b) => a.line - b.line);
    expect(found).toEqual(expected);
  });
});
