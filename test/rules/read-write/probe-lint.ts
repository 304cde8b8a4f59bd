// One TypeScript file linted by ESLint with one probe rule (a bare rule that drives or wraps what
// a test looks at): the tests of the taint engine and of the rule's pre-check share it.
import tsParser from '@typescript-eslint/parser';
import { Linter, type Rule } from 'eslint';
import { expect } from 'vitest';

/** Lints `code` as `filename` with `probe` alone; fails the test on a parse error. */
export function lintWithProbe(code: string, probe: Rule.RuleModule, filename = 'service.ts'): Linter.LintMessage[] {
  const linter = new Linter({ configType: 'flat' });
  const messages = linter.verify(
    code,
    [
      {
        files: ['**/*.ts'],
        plugins: { probe: { rules: { rule: probe } } },
        languageOptions: { parser: tsParser as unknown as Linter.Parser, ecmaVersion: 'latest', sourceType: 'module' },
        rules: { 'probe/rule': 'error' },
      },
    ],
    filename,
  );
  expect(messages.filter((m) => m.fatal)).toEqual([]);
  return messages;
}
