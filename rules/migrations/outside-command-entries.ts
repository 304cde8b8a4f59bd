// A migration run inside the entry of a command table named for migrating (`{ name: 'db:migrate',
// execute: … }`, yargs' `{ command: 'migrate', handler }`) is that command's own body: it runs when
// an operator types the command, not when a replica starts.
import type { TSESTree } from '@typescript-eslint/utils';
import { propertyKeyName } from '../../analysis/ast/property-names.js';
import { MIGRATE_SCRIPT_NAME } from '../../src/knowledge/migration-scripts.js';

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

/** `report`, silent for migrator calls inside a migrate command's entry. */
export function outsideMigrateCommandEntries<Report extends (descriptor: never) => void>(report: Report): Report {
  return ((descriptor: { messageId: string; node: TSESTree.Node }) => {
    if (descriptor.messageId === 'schemaWriteCall' && inMigrateCommandEntry(descriptor.node)) return;
    report(descriptor as never);
  }) as unknown as Report;
}
