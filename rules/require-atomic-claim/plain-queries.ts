// SQL sent through a project's own function rather than a client's method: `import { query } from
// '../db'`, then `await query("SELECT … WHERE status = 'active'")` and `await query('UPDATE … WHERE
// id = $1', [row.id])`. The function sends to the module's pool, outside any transaction, like
// `pool.query`. Only SQL written in the call (or a same-file constant) counts: a `query(filters)`
// handed anything else is no SQL.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { SQL_FUNCTION_NAMES } from '../../src/knowledge/database-access.js';
import { sqlTextOf, type SqlUse } from '../../analysis/sql/sql-text.js';

/** The SQL a plain `query(sql, …)` call sends; `'absent'` when its SQL lacks `mentions`; `undefined` for any other call. */
export function plainQuerySql(
  node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression,
  sourceCode: Readonly<TSESLint.SourceCode>,
  mentions: RegExp,
): SqlUse | 'absent' | undefined {
  if (node.type !== 'CallExpression' || node.callee.type !== 'Identifier' || !SQL_FUNCTION_NAMES.has(node.callee.name)) return undefined;
  const first = node.arguments[0];
  if (!first || first.type === 'SpreadElement') return undefined;
  const sql = sqlTextOf(first, sourceCode);
  if (!sql) return undefined;
  return mentions.test(sql.text) ? { sql, call: node, client: node.callee, method: node.callee.name } : 'absent';
}
