// RuleTester wired to vitest. `ruleTester` parses TypeScript with @typescript-eslint/parser;
// `jsRuleTester` uses ESLint's default parser (espree), as a plain JavaScript project would.
import { RuleTester, type RunTests } from '@typescript-eslint/rule-tester';
import type { RuleModule } from '@typescript-eslint/utils/ts-eslint';
import { afterAll, describe, it } from 'vitest';

RuleTester.afterAll = afterAll;
RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

// @typescript-eslint/rule-tester may pin a different @typescript-eslint/utils than the rules
// are typed against; the two RuleModule types are the same at run time, so accept ours.
export interface ReplicaGuardRuleTester {
  run<MessageIds extends string, Options extends readonly unknown[]>(
    name: string,
    rule: RuleModule<MessageIds, Options, unknown>,
    tests: RunTests<MessageIds, Options>,
  ): void;
}

export const ruleTester = new RuleTester({
  languageOptions: { parserOptions: { ecmaVersion: 'latest', sourceType: 'module' } },
}) as unknown as ReplicaGuardRuleTester;

// espree: `parser: undefined` is not accepted by the flat config, so load it explicitly.
// @ts-expect-error espree ships no types
import * as espree from 'espree';
export const jsRuleTester = new RuleTester({
  languageOptions: { parser: espree as never, ecmaVersion: 'latest', sourceType: 'module' },
}) as unknown as ReplicaGuardRuleTester;
