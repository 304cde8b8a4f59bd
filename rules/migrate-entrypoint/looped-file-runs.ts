// Where a hand-written runner applies each migration file: in a loop over the pending files, the
// call that sends one file to the database — by its path (`await sql.file(join(dir, name))`) or by
// its text read from disk (`await db.query(readFileSync(file, 'utf8'))`). An entrypoint that holds
// no lock is reported there, where two pods race, when no runner is called by name.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { SQL_FILE_METHODS } from '../../src/knowledge/migrator-methods.js';
import { loopedCollection, namesMigrations, sqlFileRuns } from '../migrations/sql-file-runs.js';

/** The calls that apply one migration file each, in a loop over migration files (see the file's head); asked only when no run is named. */
export function loopedFileRuns(
  calls: readonly TSESTree.CallExpression[],
  sourceCode: Readonly<TSESLint.SourceCode>,
): TSESTree.CallExpression[] {
  const byPath = calls.filter((call) => {
    const callee = unwrapExpression(call.callee);
    if (callee.type !== 'MemberExpression' || !SQL_FILE_METHODS.has(memberPropertyName(callee) ?? '') || call.arguments.length === 0)
      return false;
    const collection = loopedCollection(call);
    return collection !== undefined && namesMigrations(collection, sourceCode);
  });
  return byPath.length > 0 ? byPath : sqlFileRuns(sourceCode, new Set());
}
