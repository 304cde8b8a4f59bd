// A model of the project named by what it was imported as: `import User from
// '../../models/user/index.js'`, `const Data = require('../models/data')`. Its methods are the
// project's own reads and writes (`User.get(id)`, `User.updateImpactPoints(user)`), whose bodies a
// file linted alone never sees. Only the module's top-level imports and requires are looked at.
import type { TSESTree } from '@typescript-eslint/utils';
import { declaresRowTypes, isModelModule } from '../../src/knowledge/model-modules.js';

function programOf(node: TSESTree.Node): TSESTree.Program | undefined {
  let current: TSESTree.Node | undefined = node;
  while (current?.parent) current = current.parent;
  return current?.type === 'Program' ? current : undefined;
}

/** The module a declarator requires (`const User = require('…')`), or undefined. */
function requiredModule(declarator: TSESTree.VariableDeclarator): string | undefined {
  const init = declarator.init;
  const source =
    init?.type === 'CallExpression' && init.callee.type === 'Identifier' && init.callee.name === 'require' ? init.arguments[0] : undefined;
  return source?.type === 'Literal' && typeof source.value === 'string' ? source.value : undefined;
}

/**
 * Each name the top of a program imports or requires, and whether from a data-access folder: the
 * first top-level statement that binds the name decides (an import of it, or a declarator of it
 * that requires a string). Built once per program: the question is asked of many calls in a walk.
 */
const importedModels = new WeakMap<TSESTree.Program, Map<string, boolean>>();
const importedRowTypes = new WeakMap<TSESTree.Program, Map<string, boolean>>();
function importedModelsOf(
  program: TSESTree.Program,
  cache = importedModels,
  fromModels: (specifier: string) => boolean = isModelModule,
): Map<string, boolean> {
  let byName = cache.get(program);
  if (byName) return byName;
  byName = new Map();
  for (const statement of program.body) {
    if (statement.type === 'ImportDeclaration') {
      for (const specifier of statement.specifiers) {
        if (!byName.has(specifier.local.name)) byName.set(specifier.local.name, fromModels(String(statement.source.value)));
      }
      continue;
    }
    if (statement.type !== 'VariableDeclaration') continue;
    // Only a statement's first declarator of a name is looked at (a later one of the same name is not).
    const seen = new Set<string>();
    for (const declarator of statement.declarations) {
      if (declarator.id.type !== 'Identifier' || seen.has(declarator.id.name)) continue;
      seen.add(declarator.id.name);
      const required = requiredModule(declarator);
      if (required !== undefined && !byName.has(declarator.id.name)) byName.set(declarator.id.name, fromModels(required));
    }
  }
  cache.set(program, byName);
  return byName;
}

/** Whether `identifier` names a binding imported (or required) at the top of its file from a data-access folder of the project. */
export function namesImportedModel(identifier: TSESTree.Identifier): boolean {
  const program = programOf(identifier);
  return program ? (importedModelsOf(program).get(identifier.name) ?? false) : false;
}

/**
 * Whether `identifier` (a type's name) is imported at the top of its file from a module that declares
 * persisted rows (`import { Account } from '../entities/account.entity'`, `import type { User } from '@prisma/client'`).
 */
export function namesImportedRowType(identifier: TSESTree.Identifier): boolean {
  const program = programOf(identifier);
  return program ? (importedModelsOf(program, importedRowTypes, declaresRowTypes).get(identifier.name) ?? false) : false;
}
