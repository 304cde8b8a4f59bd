// Hand-written start-up DDL: a project function that sends schema DDL to the database itself
// (`db.execute(sql`ALTER TABLE … ADD COLUMN IF NOT EXISTS …`)`, `pool.query('CREATE INDEX IF NOT
// EXISTS …')`, `knex.raw(…)`, `prisma.$executeRawUnsafe(…)`) writes the schema as surely as a
// migrator does; called as the app starts, every replica runs it at once (lock waits, a failed
// deploy when a statement is not idempotent). Read only in the bodies of functions the rule already
// asks about (a call named for migrations or database set-up, `CROSS_FILE_CANDIDATE`). Not a
// schema write: DDL sent to an embedded file database (one per host). An advisory lock taken for
// the run changes nothing: the replicas wait for each other, and each still runs it at every start.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import { projectValueOf, type ProjectFunction } from '../../analysis/modules/index.js';
import { moduleSpecifiers } from '../../analysis/imports/imported-references.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { SQL_METHODS, SQL_TAGS } from '../../src/knowledge/sql.js';
import { SCHEMA_DDL } from '../../src/knowledge/migrators.js';
import { EMBEDDED_CLIENT_MODULES } from '../../src/knowledge/embedded-databases.js';
import { receiverIsEmbedded } from './embedded-database.js';
import { builtDdlTexts } from './ddl-builders.js';

type SourceCode = Readonly<TSESLint.SourceCode>;

/** The name a template tag ends in: `sql` of `sql`…``, `sql` of `Prisma.sql`…``. */
function tagName(tag: TSESTree.Node): string | undefined {
  const value = unwrapExpression(tag);
  return value.type === 'Identifier' ? value.name : value.type === 'MemberExpression' ? memberPropertyName(value) : undefined;
}

/**
 * Whether SQL text, as written in the argument, holds schema DDL (`ddl`): a string, a template, a SQL-tagged template, a
 * `const` holding one, or the call of a function of this file that returns one (`pool.query(tableDdl('parcels'))`,
 * `const tableDdl = (name) => `CREATE TABLE IF NOT EXISTS ${name} …``; ddl-builders.ts).
 */
export function isDdlText(node: TSESTree.Node, sourceCode: SourceCode, ddl: RegExp = SCHEMA_DDL, hops = 0): boolean {
  const value = unwrapExpression(node);
  if (value.type === 'Literal') return typeof value.value === 'string' && ddl.test(value.value);
  if (value.type === 'TemplateLiteral') return value.quasis.some((q) => ddl.test(q.value.raw));
  if (value.type === 'TaggedTemplateExpression')
    return SQL_TAGS.has(tagName(value.tag) ?? '') && value.quasi.quasis.some((q) => ddl.test(q.value.raw));
  if (hops > 0) return false;
  if (value.type === 'CallExpression') return builtDdlTexts(value, sourceCode).some((text) => isDdlText(text, sourceCode, ddl, hops + 1));
  if (value.type !== 'Identifier') return false;
  const variable = scopeVariable(sourceCode, value);
  const def = variable?.defs.length === 1 ? variable.defs[0]?.node : undefined;
  return def?.type === 'VariableDeclarator' && def.init != null && isDdlText(def.init, sourceCode, ddl, hops + 1);
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
 * one, here or in the project module it is imported from).
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
  return !receiverIsEmbedded(callee.object, module.sourceCode, imported);
}
