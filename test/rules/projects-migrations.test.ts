// no-in-app-migrations and migrate-entrypoint across the files of a project: a set-up function in
// another module that runs the migrator two calls deep, TypeORM options imported from the module
// that builds them, and the file a package.json `db:migrate` script runs (the entrypoint: quiet
// for no-in-app-migrations, checked by migrate-entrypoint). Linted through ESLint's Node API with
// the plugin built from source.
import { describe, expect, test } from 'vitest';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import plugin from '../../rules/index.js';

const projects = join(fileURLToPath(new URL('.', import.meta.url)), 'projects');

async function findings(project: string, file: string): Promise<string[]> {
  const root = join(projects, project);
  const eslint = new ESLint({
    cwd: root,
    overrideConfigFile: true,
    overrideConfig: [
      {
        files: ['**/*.{ts,js}'],
        languageOptions: { parser: tseslint.parser as never, sourceType: 'module' },
        plugins: { 'replica-guard': plugin as never },
        rules: { 'replica-guard/no-in-app-migrations': 'error', 'replica-guard/migrate-entrypoint': 'error' },
      },
    ],
  });
  const [result] = await eslint.lintFiles([join(root, file)]);
  return result!.messages.map((m) => `${m.ruleId ?? 'fatal'} ${file}:${m.line}:${m.column} ${m.messageId ?? m.message}`);
}

describe('migrations across files', () => {
  test('the app calls a set-up function that migrates two calls away, and builds a DataSource from imported options', async () => {
    expect(await findings('migrations-wrappers', 'src/main.ts')).toEqual([
      'replica-guard/no-in-app-migrations src/main.ts:7:9 schemaWriteCall',
      'replica-guard/no-in-app-migrations src/main.ts:8:33 schemaWriteOption',
    ]);
  });

  test('the module that defines the migrator call is reported where the call is', async () => {
    expect(await findings('migrations-wrappers', 'src/db/knex.ts')).toEqual([
      'replica-guard/no-in-app-migrations src/db/knex.ts:6:9 schemaWriteCall',
    ]);
  });

  test('the file the db:migrate script runs is the migrate entrypoint', async () => {
    expect(await findings('migrations-wrappers', 'src/commands/apply-schema.ts')).toEqual([
      'replica-guard/migrate-entrypoint src/commands/apply-schema.ts:1:1 noLock',
    ]);
  });
});
