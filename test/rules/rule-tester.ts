// RuleTester wired to vitest. `ruleTester` parses TypeScript with @typescript-eslint/parser;
// `jsRuleTester` uses ESLint's default parser (espree), as a plain JavaScript project would.
import { RuleTester } from '@typescript-eslint/rule-tester';
import { afterAll, describe, it } from 'vitest';

RuleTester.afterAll = afterAll;
RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

export const ruleTester = new RuleTester({
  languageOptions: { parserOptions: { ecmaVersion: 'latest', sourceType: 'module' } },
});

// espree: `parser: undefined` is not accepted by the flat config, so load it explicitly.
// @ts-expect-error espree ships no types
import * as espree from 'espree';
export const jsRuleTester = new RuleTester({
  languageOptions: { parser: espree as never, ecmaVersion: 'latest', sourceType: 'module' },
});
