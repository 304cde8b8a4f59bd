// The variable a name refers to, found through the scope analysis. The lookup throws for a node
// the scope manager never saw (a synthetic node, a scope built for another file), so it is asked
// once here and a failure reads as "not found".
import { findVariable } from '@eslint-community/eslint-utils';
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';

export type ScopeVariable = NonNullable<ReturnType<SourceCode['getDeclaredVariables']>[number]>;

/** The variable `identifier` refers to at its place, or undefined when it is a global nobody declared or cannot be looked up. */
export function scopeVariable(sourceCode: Readonly<SourceCode>, identifier: TSESTree.Identifier): ScopeVariable | undefined {
  try {
    return (findVariable(sourceCode.getScope(identifier) as never, identifier as never) as ScopeVariable | null) ?? undefined;
  } catch {
    return undefined;
  }
}
