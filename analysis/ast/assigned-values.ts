// What a variable of the linted file is given: its initialiser and every assignment to it
// (`let client; if (remote) client = connectRemote(); else client = openLocal();`). `complete` is
// false when the file does not say all it holds: a parameter, an import, a destructured name, or
// no value written at all.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { scopeVariable } from './scope-variable.js';

export interface AssignedValues {
  values: TSESTree.Node[];
  complete: boolean;
}

export function assignedValues(sourceCode: Readonly<TSESLint.SourceCode>, id: TSESTree.Identifier): AssignedValues {
  const variable = scopeVariable(sourceCode, id);
  const values = new Set<TSESTree.Node>();
  for (const def of variable?.defs ?? []) {
    if (def.type === 'Variable' && def.node.type === 'VariableDeclarator' && def.node.init) values.add(def.node.init);
  }
  for (const reference of variable?.references ?? []) if (reference.writeExpr) values.add(reference.writeExpr);
  const complete =
    values.size > 0 && !!variable && variable.defs.every((def) => def.type === 'Variable' && def.node.type === 'VariableDeclarator');
  return { values: [...values], complete };
}
