// A load for its effects of a project module that starts work (`import './server.js'`, `import '~/cron'`):
// the file that makes it starts the server or its schedules too, so a schema write beside it is the
// start's, not a script's of its own (bare-scripts.ts).
import type { TSESTree } from '@typescript-eslint/utils';
import { isProjectModuleSpecifier } from '../../src/knowledge/project-modules.js';
import { STARTING_MODULE_NAMES } from '../../src/knowledge/file-conventions.js';

/** Whether an import binds nothing and loads a project module named for starting work (see the file's head). */
export function importsStartingModule(statement: TSESTree.ImportDeclaration): boolean {
  const specifier = statement.source.value;
  if (statement.specifiers.length > 0 || !isProjectModuleSpecifier(specifier)) return false;
  const base = specifier.slice(specifier.lastIndexOf('/') + 1).replace(/\.[cm]?[jt]sx?$/, '');
  return STARTING_MODULE_NAMES.test(base);
}
