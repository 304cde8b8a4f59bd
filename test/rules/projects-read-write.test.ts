// no-read-then-write across files: fixture projects (test/rules/projects/read-write-*) linted
// through ESLint's Node API with the plugin built from source. A read one call away — a helper in
// another module, a method of an injected service — is followed to the row it returns; a helper
// that locks the row or builds a fresh object is not a read.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, test } from 'vitest';
import plugin from '../../rules/index.js';
import { clearProjectModules, projectModuleCount } from '../../analysis/modules/index.js';

const projects = fileURLToPath(new URL('./projects/', import.meta.url));

async function findings(project: string, files = 'src/**/*.ts'): Promise<string[]> {
  const cwd = join(projects, project);
  const eslint = new ESLint({
    cwd,
    overrideConfigFile: true,
    overrideConfig: [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tseslint.parser as never, sourceType: 'module' },
        plugins: { 'replica-guard': plugin as never },
        rules: { 'replica-guard/no-read-then-write': 'error' },
      },
    ],
  });
  const results = await eslint.lintFiles([files]);
  return results.flatMap((result) =>
    result.messages.map(
      (m) => `${m.ruleId ?? 'fatal'} ${result.filePath.slice(cwd.length + 1)}:${m.line}:${m.column}${m.fatal ? ` ${m.message}` : ''}`,
    ),
  );
}

describe('no-read-then-write across files', () => {
  test('a helper in another module returns a row: changed and saved is a lost update; a locked read or a fresh object is not', async () => {
    expect(await findings('read-write-helper-module')).toEqual(['replica-guard/no-read-then-write src/top-up.ts:7:17']);
  });

  test("an injected service's method returns a row; its field plus one is written back", async () => {
    expect(await findings('read-write-injected-service')).toEqual(['replica-guard/no-read-then-write src/views.controller.ts:11:21']);
  });

  test("a row read by a helper's SQL (`const { rows } = await pool.query(…)`) and written back through a field setter named for the write", async () => {
    expect(await findings('read-write-field-helper')).toEqual(['replica-guard/no-read-then-write src/checkout.ts:6:9']);
  });

  test('a row from a helper in another module, written back through a helper that sends the values it is handed', async () => {
    // `updateShelfStamp` sends values of its own: what it is handed is not written (named for no field, no value of `slots` counts).
    expect(await findings('read-write-helper-pair')).toEqual(['replica-guard/no-read-then-write src/restock.ts:5:9']);
  });

  test('a helper is asked about (and its module parsed) only when its result reaches a write', async () => {
    clearProjectModules();
    // The member is read, but only its id is used: the write sends nothing derived from it.
    expect(await findings('read-write-lazy-helper', 'src/greet.ts')).toEqual([]);
    expect(projectModuleCount()).toBe(0);
    expect(await findings('read-write-lazy-helper', 'src/award.ts')).toEqual(['replica-guard/no-read-then-write src/award.ts:7:17']);
    expect(projectModuleCount()).toBe(1);
  });
});
