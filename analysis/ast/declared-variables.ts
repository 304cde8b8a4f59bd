// The variables a declaration node declares (an import specifier, a declarator, a function), with
// their references, as the scope manager of the node's module sees them.
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';

export interface DeclaredVariable {
  name: string;
  /** Every reference; `init` marks the one that initialises the variable. */
  references: ReadonlyArray<{ identifier: TSESTree.Identifier; init?: boolean | null }>;
}

/** The variables `node` declares, or only the one named `name` when given. */
export function declaredVariables(sourceCode: Readonly<SourceCode>, node: TSESTree.Node, name?: string): DeclaredVariable[] {
  const variables = sourceCode.getDeclaredVariables(node) as unknown as DeclaredVariable[];
  return name === undefined ? variables : variables.filter((variable) => variable.name === name);
}
