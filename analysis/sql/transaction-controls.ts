// Where a SQL call runs inside a transaction: between `BEGIN` and `COMMIT` sent on the same
// client in the same function (raw SQL, or TypeORM's `startTransaction()`/`commitTransaction()`),
// or on the client a transaction callback receives (`sql.begin(sql => …)`, `knex.transaction(trx
// => …)`, `prisma.$transaction(tx => …)`, `dataSource.transaction(manager => …)`, pg-promise `tx`).
import { chainStart } from '../ast/chain-root.js';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { scopeVariable } from '../ast/scope-variable.js';
import { parseSql, TRANSACTION_BEGIN_METHODS, TRANSACTION_CALLBACK_METHODS, TRANSACTION_COMMIT_METHODS } from '../../src/knowledge/sql.js';
import { enclosingFunction, isFunctionNode, type FunctionNode } from './enclosing-function.js';
import { sqlSentBy } from './sql-text.js';

type SourceCode = Readonly<TSESLint.SourceCode>;

export interface TransactionControl {
  kind: 'begin' | 'commit';
  /** Source text of the client the statement was sent on (`client`, `this.db`). */
  client: string;
  fn: FunctionNode | undefined;
  range: [number, number];
}

function methodName(callee: TSESTree.Node): string | undefined {
  if (callee.type !== 'MemberExpression') return undefined;
  if (!callee.computed && callee.property.type === 'Identifier') return callee.property.name;
  return undefined;
}

/** The transaction control a call or tagged template is (`client.query('BEGIN')`, `qr.commitTransaction()`), if any. */
export function transactionControlOf(
  node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression,
  sourceCode: SourceCode,
): TransactionControl | undefined {
  const fn = enclosingFunction(node);
  if (node.type === 'CallExpression' && node.callee.type === 'MemberExpression') {
    const method = methodName(node.callee);
    const client = sourceCode.getText(node.callee.object);
    if (method && node.arguments.length === 0) {
      if (TRANSACTION_BEGIN_METHODS.has(method)) return { kind: 'begin', client, fn, range: node.range };
      if (TRANSACTION_COMMIT_METHODS.has(method)) return { kind: 'commit', client, fn, range: node.range };
    }
  }
  const use = sqlSentBy(node, sourceCode, /begin|start|commit|end/i);
  if (!use || use === 'absent' || !use.client || !/^\s*(?:begin|start|commit|end)\b/i.test(use.sql.text)) return undefined;
  const statement = parseSql(use.sql.text)?.statements[0];
  if (statement?.kind !== 'begin' && statement?.kind !== 'commit') return undefined;
  return { kind: statement.kind, client: sourceCode.getText(use.client), fn, range: node.range };
}

/** Whether `call` (sent on `client`) sits after a BEGIN and before a COMMIT on the same client in the same function. */
export function isBetweenBeginAndCommit(call: TSESTree.Node, client: string, controls: readonly TransactionControl[]): boolean {
  const fn = enclosingFunction(call);
  const same = controls.filter((c) => c.fn === fn && c.client === client);
  const begin = same.some((c) => c.kind === 'begin' && c.range[1] <= call.range[0]);
  const commit = same.some((c) => c.kind === 'commit' && c.range[0] >= call.range[1]);
  return begin && commit;
}

/** Whether `client` is the parameter a transaction callback receives (`sql.begin(async (sql) => …)`). */
export function isTransactionCallbackClient(client: TSESTree.Node, sourceCode: SourceCode): boolean {
  const root = chainStart(client);
  if (root.type !== 'Identifier') return false;
  const variable = scopeVariable(sourceCode, root);
  const def = variable?.defs[0];
  if (!def || def.type !== 'Parameter' || !isFunctionNode(def.node)) return false;
  const callback = def.node;
  const call = callback.parent;
  if (call?.type !== 'CallExpression' || !call.arguments.includes(callback as TSESTree.CallExpressionArgument)) return false;
  const method = methodName(call.callee) ?? (call.callee.type === 'Identifier' ? call.callee.name : undefined);
  return method !== undefined && TRANSACTION_CALLBACK_METHODS.has(method);
}
