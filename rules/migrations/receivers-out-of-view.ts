// `database.sync()` with no arguments on a client a project module builds and exports, when that
// module cannot be read (a missing file, an alias only the bundler knows: `import database from
// '~/store/database'`): the file neither imports Sequelize nor gives the call options that tell it,
// and the module that would say what the receiver is is out of view. A bare `.sync()` on a name for
// a database client (`db`, `database`, `catalogDb`, `seqLink`: `OUT_OF_VIEW_CLIENT_NAMES`) is
// Sequelize's schema sync: other libraries' `sync` take an argument (`glob.sync(pattern)`,
// `pouch.sync(remote)`), and a name that says nothing of a database (`conn`, `store`) stays quiet. A
// module in view decides by its own code (receivers-built-elsewhere.ts); a package's export is no
// project client.
import type { TSESTree } from '@typescript-eslint/utils';
import type { DetectContext } from '../../analysis/detect-context.js';
import { moduleBindings } from '../../analysis/imports/module-bindings.js';
import { isProjectModuleSpecifier } from '../../src/knowledge/project-modules.js';
import { projectModuleOf } from '../../analysis/modules/index.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import type { SchemaWriteMethod } from '../../src/knowledge/migrators.js';
import { OUT_OF_VIEW_CLIENT_NAMES } from '../../src/knowledge/migrator-receivers.js';

/**
 * Whether `receiver.<method>()`, called with no arguments, is on a database client an unreadable project module exports
 * (see the file's head). Only for entries whose options tell their call (`optionKeys`: Sequelize's `sync`).
 */
export function builtOutOfView(context: DetectContext, method: SchemaWriteMethod, receiver: TSESTree.Node): boolean {
  const member = receiver.parent;
  const call = member?.parent;
  if (method.optionKeys === undefined || call?.type !== 'CallExpression' || unwrapExpression(call.callee) !== member) return false;
  if (call.arguments.length > 0) return false;
  const object = unwrapExpression(receiver, { await: true });
  if (object.type !== 'Identifier' || !OUT_OF_VIEW_CLIENT_NAMES.test(object.name)) return false;
  const specifier = moduleBindings(context.sourceCode.ast).get(object.name);
  if (specifier === undefined || !isProjectModuleSpecifier(specifier)) return false;
  return projectModuleOf(context, specifier) === undefined;
}
