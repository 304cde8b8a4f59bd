// A model of the project named by what it was imported as: `import User from
// '../../models/user/index.js'`, `const Data = require('../models/data')`. Its methods are the
// project's own reads and writes (`User.get(id)`, `User.updateImpactPoints(user)`), whose bodies a
// file linted alone never sees. Only the module's top-level imports and requires are looked at.
import type { TSESTree } from '@typescript-eslint/utils';
import { isModelModule } from '../../src/knowledge/model-modules.js';

function programOf(node: TSESTree.Node): TSESTree.Program | undefined {
  let current: TSESTree.Node | undefined = node;
  while (current?.parent) current = current.parent;
  return current?.type === 'Program' ? current : undefined;
}

/** The module a top-level `require` of a string binds to `name` (`const User = require('…')`), or undefined. */
function requiredModule(statement: TSESTree.ProgramStatement, name: string): string | undefined {
  if (statement.type !== 'VariableDeclaration') return undefined;
  for (const declarator of statement.declarations) {
    if (declarator.id.type !== 'Identifier' || declarator.id.name !== name) continue;
    const init = declarator.init;
    const source =
      init?.type === 'CallExpression' && init.callee.type === 'Identifier' && init.callee.name === 'require'
        ? init.arguments[0]
        : undefined;
    return source?.type === 'Literal' && typeof source.value === 'string' ? source.value : undefined;
  }
  return undefined;
}

/** Whether `identifier` names a binding imported (or required) at the top of its file from a data-access folder of the project. */
export function namesImportedModel(identifier: TSESTree.Identifier): boolean {
  const name = identifier.name;
  for (const statement of programOf(identifier)?.body ?? []) {
    if (statement.type === 'ImportDeclaration') {
      if (statement.specifiers.some((s) => s.local.name === name)) return isModelModule(String(statement.source.value));
      continue;
    }
    const required = requiredModule(statement, name);
    if (required !== undefined) return isModelModule(required);
  }
  return false;
}
