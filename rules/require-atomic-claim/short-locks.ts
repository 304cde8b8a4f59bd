// A row lock that ends before the work: `SELECT … FOR UPDATE SKIP LOCKED` (Knex / Kysely
// `.forUpdate().skipLocked()`, Drizzle `.for('update')`) locks the rows only until its transaction
// ends. Sent on the pool (`pool.query`, a module's `knex` or `prisma`, a service's `this.pool`)
// outside any transaction, the statement is its own transaction: the locks are gone when it
// returns, and a second replica's select picks the same rows while the first is still publishing
// them. Sent between `BEGIN` and a `COMMIT` that comes before the rows are used, the same. Such a
// read is a pending read like one without a lock. A read on a client a transaction callback
// receives (`trx`, `tx`), one whose transaction is still open when the rows are acted on, or one
// handed a transaction option (`{ transaction: t }`, `.transacting(trx)`) keeps its lock.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import { declaredVariables } from '../../analysis/ast/declared-variables.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { descendants } from '../../analysis/sql/descendants.js';
import { enclosingFunction, isFunctionNode } from '../../analysis/sql/enclosing-function.js';
import { transactionControlOf, type TransactionControl } from '../../analysis/sql/transaction-controls.js';
import { POOL_CHECKOUT_METHODS, POOL_FIELD, TRANSACTION_OPTION_KEYS } from '../../src/knowledge/transaction-handles.js';
import { hasWordSequence, type SqlToken } from '../../src/knowledge/sql-tokens.js';

type SourceCode = Readonly<TSESLint.SourceCode>;
type DatabaseCall = TSESTree.CallExpression | TSESTree.TaggedTemplateExpression;

/** The client a read is sent on: the object of its first member (`pool` of `pool.query`, `this.pool`, `knex` of `knex('t').where(…)`). */
function clientOf(node: DatabaseCall): TSESTree.Node | undefined {
  let current: TSESTree.Node = node.type === 'CallExpression' ? node.callee : node.tag;
  for (;;) {
    current = unwrapExpression(current);
    if (current.type === 'CallExpression') current = current.callee;
    else if (current.type === 'MemberExpression' && current.object.type !== 'ThisExpression') current = current.object;
    else return current;
  }
}

/** Whether a chain link or an option hands the read a transaction (`.transacting(trx)`, `{ transaction: t }`). */
function handedTransaction(node: DatabaseCall): boolean {
  for (let current: TSESTree.Node = node; current.type === 'CallExpression';) {
    const callee = unwrapExpression(current.callee);
    if (callee.type === 'MemberExpression' && memberPropertyName(callee) === 'transacting') return true;
    const withOption = current.arguments.some(
      (a) =>
        a.type === 'ObjectExpression' && a.properties.some((p) => p.type === 'Property' && TRANSACTION_OPTION_KEYS.has(memberKey(p) ?? '')),
    );
    if (withOption) return true;
    current = callee.type === 'MemberExpression' ? unwrapExpression(callee.object) : callee;
  }
  return false;
}

const memberKey = (property: TSESTree.Property): string | undefined =>
  property.key.type === 'Identifier' ? property.key.name : property.key.type === 'Literal' ? String(property.key.value) : undefined;

/** Whether the client is the pool itself — a binding of the module (an import, a top-level `const`), a pool-named field (`this.pool`, `this.prisma`) — or a client checked out of it. */
function isPoolClient(client: TSESTree.Node, sourceCode: SourceCode): boolean {
  if (client.type === 'MemberExpression')
    return client.object.type === 'ThisExpression' && POOL_FIELD.test(memberPropertyName(client) ?? '');
  if (client.type !== 'Identifier') return false;
  const variable = scopeVariable(sourceCode, client);
  const def = variable?.defs[0];
  if (!variable || (def?.type !== 'ImportBinding' && def?.type !== 'Variable')) return false;
  if (variable.scope.type === 'module' || variable.scope.type === 'global') return true;
  // `const client = await pool.connect()`: a client checked out, on which no BEGIN was sent (asked by the caller).
  const init = def.node.type === 'VariableDeclarator' && def.node.init ? unwrapExpression(def.node.init, { await: true }) : undefined;
  const callee = init?.type === 'CallExpression' ? unwrapExpression(init.callee) : undefined;
  return callee?.type === 'MemberExpression' && POOL_CHECKOUT_METHODS.has(memberPropertyName(callee) ?? '');
}

/** The declarator a read's rows are kept in (`const { rows } = await …`, `const jobs = await …`). */
function keptIn(node: DatabaseCall): TSESTree.VariableDeclarator | undefined {
  let up: TSESTree.Node | undefined = node.parent;
  while (up && (up.type === 'AwaitExpression' || up.type === 'TSAsExpression' || up.type === 'TSNonNullExpression')) up = up.parent;
  return up?.type === 'VariableDeclarator' ? up : undefined;
}

/** The transaction controls (`BEGIN`, `COMMIT`, `commit()`) sent in `fn`'s own body. */
function controlsIn(fn: TSESTree.FunctionLike, sourceCode: SourceCode): TransactionControl[] {
  if (!fn.body) return [];
  const out: TransactionControl[] = [];
  for (const node of descendants(fn.body, sourceCode.visitorKeys, isFunctionNode)) {
    if (node.type !== 'CallExpression' && node.type !== 'TaggedTemplateExpression') continue;
    const control = transactionControlOf(node, sourceCode);
    if (control) out.push(control);
  }
  return out;
}

/** Whether the row lock a read takes ends before its rows are acted on (autocommit on the pool, or a COMMIT before the rows are used). */
export function lockEndsBeforeWork(node: DatabaseCall, sourceCode: SourceCode): boolean {
  const fn = enclosingFunction(node);
  const client = clientOf(node);
  if (!fn || !client || handedTransaction(node)) return false;
  const clientText = sourceCode.getText(client);
  const controls = controlsIn(fn, sourceCode).filter((c) => c.client === clientText);
  const begun = controls.some((c) => c.kind === 'begin' && c.range[1] <= node.range[0]);
  if (!begun) return isPoolClient(client, sourceCode);
  // BEGIN … the read … COMMIT, and the rows used only after the COMMIT.
  const commit = controls.find((c) => c.kind === 'commit' && c.range[0] >= node.range[1]);
  if (!commit) return false;
  const declarator = keptIn(node);
  const uses = (declarator ? declaredVariables(sourceCode, declarator) : []).flatMap((v) => v.references.filter((r) => !r.init));
  const at = (r: (typeof uses)[number]): number => r.identifier.range[0];
  return uses.some((r) => at(r) >= commit.range[1]) && !uses.some((r) => at(r) > node.range[1] && at(r) < commit.range[0]);
}

/** `… SKIP LOCKED`: a queue's claim, whatever the table or its state column is named (its lock let go, the rows are still a queue's). */
export const skipsLocked = (tokens: readonly SqlToken[]): boolean => hasWordSequence(tokens, ['skip', 'locked']);
