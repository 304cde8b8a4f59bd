// A catalogue method called on a client another project module builds and hands over
// (`const conn = require('../db/connection'); await conn.sync()` with `module.exports = new
// Sequelize(url, { dialect: 'mysql' })` there): the file neither imports nor names the library, and
// calls the method with no options that tell it, so only the other module says what the receiver is.
// Asked last, of a call whose method name fits an entry the file gives no evidence for.
import type { TSESTree } from '@typescript-eslint/utils';
import type { DetectContext } from '../../analysis/detect-context.js';
import { exportedBinding, projectModuleOf, projectValueOf, type ProjectModule } from '../../analysis/modules/index.js';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { RECEIVER_EVIDENCE } from '../../src/knowledge/migrator-receivers.js';
import type { SchemaWriteMethod } from '../../src/knowledge/migrators.js';
import { receiverShowsLibrary } from './receiver-evidence.js';

/**
 * Whether `receiver`, a name bound to what another project module exports, is there one of the
 * entry's library's objects (`new Sequelize(…)`, a `const sequelize` it builds), by that module's own code.
 */
export function builtElsewhereAsLibrary(context: DetectContext, method: SchemaWriteMethod, receiver: TSESTree.Node): boolean {
  const evidence = RECEIVER_EVIDENCE[method.library];
  const object = unwrapExpression(receiver);
  if (evidence === undefined || object.type !== 'Identifier') return false;
  const value = projectValueOf(context, object) ?? requiredValueOf(context, object);
  return (
    value !== undefined && value.module.path !== context.filename && receiverShowsLibrary(evidence, value.node, value.module.sourceCode)
  );
}

/** What `const conn = require('./db/connection')` holds: that module's `module.exports = …`. */
function requiredValueOf(
  context: DetectContext,
  identifier: TSESTree.Identifier,
): { node: TSESTree.Node; module: ProjectModule } | undefined {
  const def = scopeVariable(context.sourceCode, identifier)?.defs[0]?.node;
  const init = def?.type === 'VariableDeclarator' && def.id.type === 'Identifier' ? def.init : null;
  const specifier =
    init?.type === 'CallExpression' && init.callee.type === 'Identifier' && init.callee.name === 'require' ? init.arguments[0] : undefined;
  if (specifier?.type !== 'Literal' || typeof specifier.value !== 'string' || !specifier.value.startsWith('.')) return undefined;
  const module = projectModuleOf(context, specifier.value);
  const exported = module && exportedBinding(module, 'default');
  return exported?.kind === 'node' ? { node: exported.node, module: exported.module } : undefined;
}
