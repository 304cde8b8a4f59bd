// A migration run inside the entry of a command table named for migrating (`{ name: 'db:migrate',
// execute: … }`, yargs' `{ command: 'migrate', handler }`) is that command's own body: it runs when
// an operator types the command, not when a replica starts. So is a function a command table
// names only under a database command's key (`{ 'db:sync': dbSync }`): it runs when that command is asked for.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { propertyKeyName } from '../../analysis/ast/property-names.js';
import { DATABASE_COMMAND_KEY, MIGRATE_SCRIPT_NAME } from '../../src/knowledge/migration-scripts.js';

/** Keys that name a command in a command table's entry. */
const COMMAND_NAME_KEYS: ReadonlySet<string> = new Set(['name', 'command', 'cmd']);

/** Whether `object` names itself a migrate command (`name: 'db:migrate'`, `command: 'migrate [dir]'`). */
function namesMigrateCommand(object: TSESTree.ObjectExpression): boolean {
  return object.properties.some((property) => {
    if (property.type !== 'Property' || !COMMAND_NAME_KEYS.has(propertyKeyName(property) ?? '')) return false;
    const value = property.value;
    return value.type === 'Literal' && typeof value.value === 'string' && MIGRATE_SCRIPT_NAME.test(value.value.trim().split(/\s/)[0] ?? '');
  });
}

/** Whether `node` lies in a function that is a property of a migrate command's entry. */
function inMigrateCommandEntry(node: TSESTree.Node): boolean {
  for (let at: TSESTree.Node | undefined = node; at; at = at.parent) {
    if (at.type !== 'ArrowFunctionExpression' && at.type !== 'FunctionExpression') continue;
    const property: TSESTree.Node | undefined = at.parent;
    if (
      property?.type === 'Property' &&
      property.value === at &&
      property.parent.type === 'ObjectExpression' &&
      namesMigrateCommand(property.parent)
    )
      return true;
  }
  return false;
}

/** Whether `identifier` is the value of a command table's entry under a database command's key (`'db:sync': dbSync`). */
function isDatabaseCommandValue(identifier: TSESTree.Node): boolean {
  const property = identifier.parent;
  if (property?.type !== 'Property' || property.value !== identifier || property.parent.type !== 'ObjectExpression') return false;
  const key = property.key;
  return !property.computed && key.type === 'Literal' && typeof key.value === 'string' && DATABASE_COMMAND_KEY.test(key.value);
}

/** The declaration that binds a function to a name: `function dbSync() {…}`, `const dbSync = () => …`. */
function bindingOf(fn: TSESTree.FunctionLike): TSESTree.FunctionDeclaration | TSESTree.VariableDeclarator | undefined {
  if (fn.type === 'FunctionDeclaration') return fn.id ? fn : undefined;
  const declarator = fn.parent;
  return declarator?.type === 'VariableDeclarator' && declarator.init === fn && declarator.id.type === 'Identifier'
    ? declarator
    : undefined;
}

/**
 * Whether `node` lies in a function of this file that is used only as a command table's entry
 * under a database command's key (`const dbSync = () => sequelize.sync({ force: true })` and
 * `{ 'db:sync': dbSync }`): a command run when asked for by name, not at a replica's start.
 */
function inDatabaseCommandHandler(node: TSESTree.Node, sourceCode: Readonly<TSESLint.SourceCode>): boolean {
  for (let at: TSESTree.Node | undefined = node.parent; at; at = at.parent) {
    if (at.type !== 'ArrowFunctionExpression' && at.type !== 'FunctionExpression' && at.type !== 'FunctionDeclaration') continue;
    const binding = bindingOf(at);
    const variable = binding && sourceCode.getDeclaredVariables(binding)[0];
    const uses = variable?.references.filter((reference) => reference.init !== true) ?? [];
    if (uses.length > 0 && uses.every((reference) => isDatabaseCommandValue(reference.identifier))) return true;
  }
  return false;
}

/** `report`, silent for migrator calls inside a migrate command's entry or a database command's handler. */
export function outsideMigrateCommandEntries<Report extends (descriptor: never) => void>(
  report: Report,
  sourceCode: Readonly<TSESLint.SourceCode>,
): Report {
  return ((descriptor: { messageId: string; node: TSESTree.Node }) => {
    if (descriptor.messageId === 'schemaWriteCall' && inMigrateCommandEntry(descriptor.node)) return;
    if (descriptor.messageId === 'schemaWriteCall' && inDatabaseCommandHandler(descriptor.node, sourceCode)) return;
    report(descriptor as never);
  }) as unknown as Report;
}
