// A script that is nothing but the call of a migration runner another module defines: its
// statements load modules and call the runner by its name (`import { applyPendingMigrations } from
// './db/runner'; applyPendingMigrations(config);`, `await runSchemaMigrations().catch(fail)`). It
// exports nothing, so no module requires it for a value, and its one call is the run: in a file
// named for migrations (`run-migration.ts`), the service's migrate script. The runner's own file
// decides how it fails; the script is where the run, and its lock, belong.
import type { TSESTree } from '@typescript-eslint/utils';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { namesMigrationRunner } from '../../src/knowledge/migrators.js';
import { onlyLoads } from './bare-scripts.js';
import { startedCall } from './one-shot-run.js';

/** The names a file's loads bind: `import { a as b } from 'm'`, `import b from 'm'`, `const { a } = require('m')`. */
function importedNames(program: TSESTree.Program): Set<string> {
  const names = new Set<string>();
  for (const statement of program.body) {
    if (statement.type === 'ImportDeclaration') for (const specifier of statement.specifiers) names.add(specifier.local.name);
    if (statement.type !== 'VariableDeclaration' || !onlyLoads(statement)) continue;
    for (const { id } of statement.declarations) {
      if (id.type === 'Identifier') names.add(id.name);
      if (id.type === 'ObjectPattern')
        for (const property of id.properties)
          if (property.type === 'Property' && property.value.type === 'Identifier') names.add(property.value.name);
    }
  }
  return names;
}

/** The name a top-level statement calls a runner by, when the statement is only that call (`run();`, `await run(x).catch(f);`). */
function calledRunnerName(statement: TSESTree.ProgramStatement): string | undefined {
  if (statement.type !== 'ExpressionStatement') return undefined;
  const call = startedCall(statement.expression);
  const callee = call && unwrapExpression(call.callee);
  return callee?.type === 'Identifier' && namesMigrationRunner(callee.name) ? callee.name : undefined;
}

/** Whether the file only loads modules and calls an imported migration runner by its name (see the file's head). */
export function onlyCallsImportedRunner(program: TSESTree.Program): boolean {
  let imported: Set<string> | undefined;
  let runs = 0;
  for (const statement of program.body) {
    if (onlyLoads(statement)) continue;
    const name = calledRunnerName(statement);
    if (name === undefined || !(imported ??= importedNames(program)).has(name)) return false;
    runs++;
  }
  return runs > 0;
}
