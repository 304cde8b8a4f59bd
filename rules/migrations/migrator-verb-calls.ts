// A migrator's run verb called on a receiver named for a migrator (`umzug.up()`, `migrator.latest()`,
// `migrations.runPending()`): the run, where the migrator itself is built in another module
// (`new MigratorSetup(…).build()`, `import { schemaMigrator } from './schema-migrator'`) and no library is in view.
import type { TSESTree } from '@typescript-eslint/utils';
import { receiverName } from '../../analysis/ast/receiver-name.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { MIGRATOR_RUN_METHODS, namesMigrator } from '../../src/knowledge/migrators.js';

/** Whether `call` is a migrator's run verb on a receiver named for one (see above). */
export function isMigratorVerbCall(call: TSESTree.CallExpression): boolean {
  const callee = unwrapExpression(call.callee);
  if (callee.type !== 'MemberExpression') return false;
  const method = memberPropertyName(callee);
  if (method === undefined || !MIGRATOR_RUN_METHODS.includes(method)) return false;
  const receiver = receiverName(unwrapExpression(callee.object));
  return receiver !== undefined && namesMigrator(receiver);
}
