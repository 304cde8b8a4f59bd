// A row lock taken in scheduled work: `SELECT … FOR UPDATE` (SQL, Knex/Kysely `.forUpdate()`,
// Drizzle `.for('update')`, TypeORM `setLock('pessimistic_write')` or `lock: { mode:
// 'pessimistic_write' }`, Sequelize `lock: true` with its transaction). A second replica's same
// statement waits for the first's transaction and then reads the rows as that one left them (the
// cursor advanced, the status changed), so the run is serialized on the rows it works on — the
// way a job-cursor row or a task row is claimed. A shared lock (`FOR SHARE`) lets both through, and
// a lock outside a transaction is let go when its statement ends: a builder's or a statement's
// lock counts inside a transaction's callback (`db.transaction(async (trx) => …)`, Kysely's
// `db.transaction().execute(…)`, postgres.js `sql.begin(…)`) and a statement's after a `BEGIN` sent
// on its client earlier in the function (node-postgres's `client.query('BEGIN')`); TypeORM's and
// Sequelize's options need one to work at all.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { hasRowLockClause, parseSql, TRANSACTION_CALLBACK_METHODS } from '../../src/knowledge/sql.js';
import { memberPropertyName, propertyKeyName } from '../ast/property-names.js';
import { isSentAfterBegin } from '../sql/sent-after-begin.js';

/** Builder methods that lock the rows read for update. */
const LOCK_FOR_UPDATE_METHODS: ReadonlySet<string> = new Set(['forUpdate', 'forNoKeyUpdate', 'skipLocked']);
/** TypeORM lock modes that keep a second writer out. */
const WRITE_LOCK_MODE = /^(?:pessimistic_write|pessimistic_partial_write|pessimistic_write_or_fail|for_no_key_update)$/;
const MAY_LOCK_FOR_UPDATE = /\bfor\s+(?:no\s+key\s+)?update\b/i;

const stringValue = (node: TSESTree.Node | undefined): string | undefined =>
  node?.type === 'Literal' && typeof node.value === 'string' ? node.value : undefined;

/** Whether SQL text selects rows with a lock for update (`… FOR UPDATE`, `… FOR NO KEY UPDATE`, `… SKIP LOCKED`). */
function isRowLockSql(text: string | undefined): boolean {
  if (text === undefined || !MAY_LOCK_FOR_UPDATE.test(text)) return false;
  const parsed = parseSql(text);
  return parsed !== undefined && parsed.statements.some((statement) => statement.kind === 'select' && hasRowLockClause(statement.tokens));
}

/** Whether a function is a transaction's callback: `db.transaction(async (trx) => …)`, `db.transaction().execute(async (trx) => …)`. */
function isTransactionCallback(fn: TSESTree.Node): boolean {
  const call = fn.parent;
  if (call?.type !== 'CallExpression' || !call.arguments.includes(fn as TSESTree.CallExpressionArgument)) return false;
  const name = memberPropertyName(call.callee);
  if (name !== undefined && TRANSACTION_CALLBACK_METHODS.has(name)) return true;
  const builder = call.callee.type === 'MemberExpression' ? call.callee.object : undefined;
  return name === 'execute' && builder?.type === 'CallExpression' && memberPropertyName(builder.callee) === 'transaction';
}

/** Whether `node` lies in a transaction's callback. */
export function isInTransactionCallback(node: TSESTree.Node): boolean {
  for (let current = node.parent; current; current = current.parent) {
    const isFunction = current.type === 'ArrowFunctionExpression' || current.type === 'FunctionExpression';
    if (isFunction && isTransactionCallback(current)) return true;
  }
  return false;
}

/** Whether a call locks the rows it reads for update: `.forUpdate()`, `.for('update')` in a transaction's callback, `.setLock('pessimistic_write')`. */
function isRowLockCall(call: TSESTree.CallExpression, inTransaction: boolean): boolean {
  const name = memberPropertyName(call.callee);
  if (name === undefined) return false;
  const mode = stringValue(call.arguments[0]);
  if (name === 'setLock') return mode !== undefined && WRITE_LOCK_MODE.test(mode);
  const locks = LOCK_FOR_UPDATE_METHODS.has(name) || (name === 'for' && (mode === 'update' || mode === 'no key update'));
  return locks && (inTransaction || isInTransactionCallback(call));
}

/** Whether a find option locks the rows for update: `lock: { mode: 'pessimistic_write' }`, Sequelize's `lock: true` / `lock: t.LOCK.UPDATE` beside a `transaction`. */
function isRowLockOption(property: TSESTree.Property): boolean {
  if (propertyKeyName(property) !== 'lock') return false;
  const value = property.value;
  if (value.type === 'ObjectExpression') {
    const mode = value.properties.find((p): p is TSESTree.Property => p.type === 'Property' && propertyKeyName(p) === 'mode');
    const text = stringValue(mode?.value);
    return text !== undefined && WRITE_LOCK_MODE.test(text);
  }
  const sequelizeLock =
    (value.type === 'Literal' && value.value === true) ||
    (value.type === 'MemberExpression' && !value.computed && value.property.type === 'Identifier' && value.property.name === 'UPDATE');
  const options = property.parent;
  return (
    sequelizeLock &&
    options?.type === 'ObjectExpression' &&
    options.properties.some((p) => p.type === 'Property' && propertyKeyName(p) === 'transaction')
  );
}

/**
 * Whether `node` locks rows for update in a transaction: a lock call or option, or a statement sent
 * in a transaction's callback or after a `BEGIN` on its client — or in a same-file helper that callback calls (`inTransaction`: the
 * walk followed a call made inside one, `lockCursor(trx)`). The work asks it only until something
 * shared is written: a lock covers what follows it.
 */
export function locksRowsForUpdate(node: TSESTree.Node, sourceCode: Readonly<TSESLint.SourceCode>, inTransaction = false): boolean {
  const inOne = () => inTransaction || isInTransactionCallback(node) || isSentAfterBegin(node, sourceCode);
  switch (node.type) {
    case 'CallExpression':
      return isRowLockCall(node, inTransaction);
    case 'Property':
      return isRowLockOption(node);
    case 'Literal':
      return typeof node.value === 'string' && isRowLockSql(node.value) && inOne();
    case 'TemplateLiteral':
      return isRowLockSql(node.quasis.map((q) => q.value.raw).join('$1')) && inOne();
    default:
      return false;
  }
}
