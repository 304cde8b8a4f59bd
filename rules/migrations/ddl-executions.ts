// Hand-written start-up DDL: a project function that sends schema DDL to the database itself
// (`db.execute(sql`ALTER TABLE … ADD COLUMN IF NOT EXISTS …`)`, `pool.query('CREATE INDEX IF NOT
// EXISTS …')`, `knex.raw(…)`, `prisma.$executeRawUnsafe(…)`) writes the schema as surely as a
// migrator does; called as the app starts, every replica runs it at once (lock waits, a failed
// deploy when a statement is not idempotent). Read only in the bodies of functions the rule already
// asks about (a call named for migrations or database set-up, `CROSS_FILE_CANDIDATE`). Not a
// schema write: DDL sent to an embedded file database (one per host), or by a function that takes
// an advisory lock for its run.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import { projectFunctionOf, projectValueOf, type ProjectFunction } from '../../analysis/modules/index.js';
import type { DetectContext } from '../utils/create-rule.js';
import { moduleSpecifiers } from '../../analysis/imports/imported-references.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { descendants } from '../../analysis/sql/descendants.js';
import { SESSION_ADVISORY_LOCK_FUNCTIONS, SQL_METHODS, SQL_TAGS, XACT_ADVISORY_LOCK_FUNCTIONS } from '../../src/knowledge/sql.js';
import { SCHEMA_DDL } from '../../src/knowledge/migrators.js';
import { EMBEDDED_CLIENT_MODULES } from '../../src/knowledge/embedded-databases.js';
import { receiverIsEmbedded } from './embedded-database.js';
import { ADVISORY_LOCK_SQL, locksForItsRun } from './self-locking.js';

type SourceCode = Readonly<TSESLint.SourceCode>;

/** The name a template tag ends in: `sql` of `sql`…``, `sql` of `Prisma.sql`…``. */
function tagName(tag: TSESTree.Node): string | undefined {
  const value = unwrapExpression(tag);
  return value.type === 'Identifier' ? value.name : value.type === 'MemberExpression' ? memberPropertyName(value) : undefined;
}

/** Whether SQL text, as written in the argument, holds schema DDL: a string, a template, a SQL-tagged template, or a `const` holding one. */
function isDdlText(node: TSESTree.Node, sourceCode: SourceCode, hops = 0): boolean {
  const value = unwrapExpression(node);
  if (value.type === 'Literal') return typeof value.value === 'string' && SCHEMA_DDL.test(value.value);
  if (value.type === 'TemplateLiteral') return value.quasis.some((q) => SCHEMA_DDL.test(q.value.raw));
  if (value.type === 'TaggedTemplateExpression')
    return SQL_TAGS.has(tagName(value.tag) ?? '') && value.quasi.quasis.some((q) => SCHEMA_DDL.test(q.value.raw));
  if (value.type !== 'Identifier' || hops > 0) return false;
  const variable = scopeVariable(sourceCode, value);
  const def = variable?.defs.length === 1 ? variable.defs[0]?.node : undefined;
  return def?.type === 'VariableDeclarator' && def.init != null && isDdlText(def.init, sourceCode, hops + 1);
}

/** A transaction-level advisory lock taken in SQL (`SELECT pg_advisory_xact_lock(…)` before the DDL, in one transaction). */
const XACT_LOCK_SQL = new RegExp(`\\b(?:${XACT_ADVISORY_LOCK_FUNCTIONS.join('|')})\\s*\\(`, 'i');

/** Whether a string node takes an advisory lock in SQL: transaction-level, or also session-level with `session`. */
function takesLock(node: TSESTree.Node, session: boolean): boolean {
  const text =
    node.type === 'Literal' && typeof node.value === 'string' ? node.value : node.type === 'TemplateElement' ? node.value.raw : undefined;
  return text !== undefined && (XACT_LOCK_SQL.test(text) || (session && ADVISORY_LOCK_SQL.test(text)));
}

/** Whether the function's own strings take a transaction-level advisory lock. */
function takesTransactionLock(fn: ProjectFunction): boolean {
  for (const node of descendants(fn.fn, fn.module.sourceCode.visitorKeys)) if (takesLock(node, false)) return true;
  return false;
}

/** Advisory-lock release in SQL (`pg_advisory_unlock(…)`): a function holding one both takes and releases its lock. */
const UNLOCK_SQL = new RegExp(
  `\\b(?:${Object.keys(SESSION_ADVISORY_LOCK_FUNCTIONS)
    .filter((name) => SESSION_ADVISORY_LOCK_FUNCTIONS[name]!.kind === 'unlock')
    .join('|')})\\s*\\(`,
  'i',
);

/** Whether a function is a lock step: its own SQL takes a session advisory lock and does not release it (`lock(db)` before the run). */
function isLockStep(fn: ProjectFunction): boolean {
  let locks = false;
  for (const node of descendants(fn.fn, fn.module.sourceCode.visitorKeys)) {
    const text =
      node.type === 'Literal' && typeof node.value === 'string' ? node.value : node.type === 'TemplateElement' ? node.value.raw : '';
    if (UNLOCK_SQL.test(text)) return false;
    locks ||= ADVISORY_LOCK_SQL.test(text);
  }
  return locks;
}

/**
 * Whether a call of a function that sends DDL sits in an advisory-locked block of the linted
 * file: before it, a function around it takes the lock in its own SQL or calls a lock step
 * (`await lock(db); … await ensureMigrationsTable(db)`); or a function around it is handed to a
 * project function that takes a lock for its run (`withAdvisoryLock(db, async () => { await
 * ensureSchema(); })`). Asked only of a call about to be reported.
 */
export function underAdvisoryLock(context: DetectContext, call: TSESTree.CallExpression): boolean {
  const resolved = (node: TSESTree.Node): ProjectFunction | undefined =>
    node.type === 'CallExpression' ? projectFunctionOf(context, node.callee) : undefined;
  for (let node: TSESTree.Node | undefined = call.parent; node; node = node.parent) {
    if (node.type !== 'FunctionDeclaration' && node.type !== 'FunctionExpression' && node.type !== 'ArrowFunctionExpression') continue;
    for (const inner of descendants(node.body, context.sourceCode.visitorKeys)) {
      if (inner.range[0] >= call.range[0]) break;
      if (takesLock(inner, true)) return true;
      const step = resolved(inner);
      if (step && isLockStep(step)) return true;
    }
    const holder = node.parent && resolved(node.parent);
    if (holder && (locksForItsRun(holder) || takesTransactionLock(holder))) return true;
  }
  return false;
}

/** Whether a call sends schema DDL to a database (`db.execute(sql`CREATE INDEX …`)`, `client.query('ALTER TABLE …')`); its first argument is the SQL. */
export function sendsSchemaDdl(call: TSESTree.CallExpression, sourceCode: SourceCode): boolean {
  const callee = unwrapExpression(call.callee);
  if (callee.type !== 'MemberExpression' || !SQL_METHODS.has(memberPropertyName(callee) ?? '')) return false;
  const [sql] = call.arguments;
  return sql !== undefined && sql.type !== 'SpreadElement' && isDdlText(sql, sourceCode);
}

/**
 * Whether DDL sent by `call` in the body of `fn` writes a schema other replicas share: not a
 * client of an embedded database (the module imports a SQLite driver, or the receiver is built on
 * one, here or in the project module it is imported from), not under an advisory lock the function
 * takes for its run (a session lock here or three calls deep, a transaction-level lock in its own SQL).
 */
export function writesSharedSchema(call: TSESTree.CallExpression, fn: ProjectFunction): boolean {
  const module = fn.module;
  const modules = moduleSpecifiers(module.sourceCode.ast as TSESTree.Program);
  if (EMBEDDED_CLIENT_MODULES.some((m) => modules.has(m))) return false;
  const callee = unwrapExpression(call.callee) as TSESTree.MemberExpression;
  const imported = (identifier: TSESTree.Identifier) => {
    const value = projectValueOf(module.context, identifier);
    return value && value.module.path !== module.path ? { node: value.node, sourceCode: value.module.sourceCode } : undefined;
  };
  return !receiverIsEmbedded(callee.object, module.sourceCode, imported) && !locksForItsRun(fn) && !takesTransactionLock(fn);
}
