// Whether the run takes its session advisory lock on a connection of its own: the lock is sent
// through a variable given a connection checked out for the run (`const client = await
// pool.connect()`, `const client = getClient(); await client.connect()`), which the run holds
// until it ends or closes it. A session lock there holds for the whole run, as on a `new Client`.
import type { TSESTree } from '@typescript-eslint/utils';
import type { DetectContext } from '../utils/create-rule.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import { LOCK_SQL } from '../migrations/runs-migrations.js';

type SourceCode = DetectContext['sourceCode'];

/** A call that hands out one connection: `pool.connect()`, `getClient()`, `createConnection()`, `acquireConnection()`. */
const CONNECTION_CALL = /^(?:connect|(?:get|create|acquire|new|open|dedicated)(?:Db|Database|Pg|Postgres)?(?:Client|Connection))$/i;

function callName(call: TSESTree.CallExpression): string | undefined {
  const callee = unwrapExpression(call.callee);
  if (callee.type === 'Identifier') return callee.name;
  if (callee.type === 'MemberExpression' && !callee.computed && callee.property.type === 'Identifier') return callee.property.name;
  return undefined;
}

/** Whether `client` names a variable initialised with one connection (`await pool.connect()`, `getClient()`). */
function isCheckedOutConnection(client: TSESTree.Node, sourceCode: SourceCode): boolean {
  if (client.type !== 'Identifier') return false;
  const variable = scopeVariable(sourceCode, client);
  const declarator = variable?.defs[0]?.node;
  if (declarator?.type !== 'VariableDeclarator' || !declarator.init) return false;
  const init = unwrapExpression(declarator.init, { await: true });
  if (init.type !== 'CallExpression') return false;
  const name = callName(init);
  return name !== undefined && CONNECTION_CALL.test(name);
}

export function locksOnCheckedOutConnection(
  strings: ReadonlyArray<{ node: TSESTree.Node; text: string }>,
  sourceCode: SourceCode,
): boolean {
  return strings.some(({ node, text }) => {
    if (!LOCK_SQL.test(text)) return false;
    const call = node.parent;
    if (call?.type !== 'CallExpression' || call.arguments[0] !== node) return false;
    const callee = unwrapExpression(call.callee);
    return callee.type === 'MemberExpression' && isCheckedOutConnection(unwrapExpression(callee.object), sourceCode);
  });
}
