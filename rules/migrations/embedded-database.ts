// Whether a schema write targets an embedded file database (`EMBEDDED_DRIVER_VALUES`): the
// options object beside `synchronize`, or the configuration the receiver of `sync()` /
// `migrate.latest()` was built from (through a `const`, or a field the class assigns), names a SQLite-like driver by a literal; or the client a
// migrator is given (`migrate(db, …)`, `db.migrate.latest()`) is built in view from an embedded
// database (`EMBEDDED_CLIENT_MODULES`, a `:memory:` or `file:` URL, a maker named for SQLite) — in view, or in the project
// module a name is imported from (one hop). A driver read from the environment, or a configuration
// out of reach, is not known to be embedded.
import { chainRoot } from '../../analysis/ast/chain-root.js';
import type { DetectContext } from '../../analysis/detect-context.js';
import { projectValueOf } from '../../analysis/modules/index.js';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import { assignedValues } from '../../analysis/ast/assigned-values.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { memberPropertyName, propertyKeyName } from '../../analysis/ast/property-names.js';
import { assignedFieldValues } from '../../analysis/ast/class-fields.js';
import { moduleBindings } from '../../analysis/imports/module-bindings.js';
import { namesDatabaseAccess } from '../../src/knowledge/database-access.js';
import { migrationOptionsObjects } from './options-objects.js';
import { runsInSqliteBranch } from './sqlite-branch.js';
import { fieldNamedEmbedded, namedEmbedded } from './embedded-by-name.js';
import { typedAsLibsqlClient } from './libsql-typed.js';
import { getterResults } from '../../analysis/ast/getter-results.js';
import {
  EMBEDDED_DRIVER_CLASSES,
  EMBEDDED_DRIVER_VALUES,
  EMBEDDED_CLIENT_MODULES,
  EMBEDDED_MAKER_NAME,
  EMBEDDED_URL,
  EMBEDDED_FILE_NAME,
  DATABASE_OPENER_NAME,
  FILE_PATH_NAME,
} from '../../src/knowledge/embedded-databases.js';

type SourceCode = Readonly<TSESLint.SourceCode>;

/**
 * Where a name bound by an import stands in the project: the value another module gives it
 * (`dataSource` from './datasource' → its `new DataSource({ type: 'sqlite', … })`), with that
 * module's source. One hop: names in that module are followed only within it.
 */
export type ImportedValue = (identifier: TSESTree.Identifier) => { node: TSESTree.Node; sourceCode: SourceCode } | undefined;

/** Whether one of these option objects names an embedded driver (`type: 'better-sqlite3'`, `dialect: 'sqlite'`, `driver: SqliteDriver`, `type: Kind.sqlite`). */
export function namesEmbeddedDatabase(objects: readonly TSESTree.ObjectExpression[]): boolean {
  return objects.some((object) =>
    object.properties.some((property) => {
      if (property.type !== 'Property') return false;
      const key = propertyKeyName(property);
      const value = unwrapExpression(property.value);
      if (key === 'driver') return value.type === 'Identifier' && EMBEDDED_DRIVER_CLASSES.includes(value.name);
      // libSQL's `createClient({ url: 'file:app.db' })`.
      if (key === 'url') return value.type === 'Literal' && typeof value.value === 'string' && EMBEDDED_URL.test(value.value);
      const drivers =
        key && Object.hasOwn(EMBEDDED_DRIVER_VALUES, key) ? EMBEDDED_DRIVER_VALUES[key as keyof typeof EMBEDDED_DRIVER_VALUES] : undefined;
      // A member of the project's own enum of drivers named for SQLite (`type: DbKind.sqliteFile`).
      if (drivers && value.type === 'MemberExpression') return EMBEDDED_MAKER_NAME.test(memberPropertyName(value) ?? '');
      return drivers !== undefined && value.type === 'Literal' && typeof value.value === 'string' && drivers.includes(value.value);
    }),
  );
}

/** Whether a node is a `require(…)` call: the value it binds is another module's, for `imported` to answer. */
const isRequireCall = (node: TSESTree.Node | null): boolean =>
  node?.type === 'CallExpression' && node.callee.type === 'Identifier' && node.callee.name === 'require';

/** The `const` initialiser a name stands for; none for a `require(…)` (`const { sequelize } = require('./db')`). */
function constInit(identifier: TSESTree.Identifier, sourceCode: SourceCode): TSESTree.Node | undefined {
  const variable = scopeVariable(sourceCode, identifier);
  const def = variable?.defs.length === 1 ? variable.defs[0]?.node : undefined;
  return def?.type === 'VariableDeclarator' &&
    def.parent.type === 'VariableDeclaration' &&
    def.parent.kind === 'const' &&
    !isRequireCall(def.init)
    ? (def.init ?? undefined)
    : undefined;
}

/** Whether a name is imported or required from a module whose clients are embedded (`import Database from 'better-sqlite3'`). */
function importedFromEmbeddedModule(identifier: TSESTree.Identifier, sourceCode: SourceCode): boolean {
  const specifier = moduleBindings(sourceCode.ast as TSESTree.Program).get(identifier.name);
  return specifier !== undefined && EMBEDDED_CLIENT_MODULES.includes(specifier);
}

/** Whether a callee's names (`SQLiteDB.openDBRaw`, `Database.sqlite`, `openSqliteFile`) say it opens an embedded database (`EMBEDDED_MAKER_NAME`). */
function namesEmbeddedMaker(callee: TSESTree.Node): boolean {
  let node: TSESTree.Node = callee;
  while (node.type === 'MemberExpression') {
    const name = memberPropertyName(node);
    if (name !== undefined && EMBEDDED_MAKER_NAME.test(name)) return true;
    node = unwrapExpression(node.object);
  }
  return node.type === 'Identifier' && EMBEDDED_MAKER_NAME.test(node.name);
}

/** Whether an argument names a file's path: `path`, `dbPath`, `resolveDatabasePath()`. */
function namesFilePath(argument: TSESTree.Node): boolean {
  const value = unwrapExpression(argument);
  if (value.type === 'Identifier') return FILE_PATH_NAME.test(value.name);
  const callee = value.type === 'CallExpression' ? unwrapExpression(value.callee) : undefined;
  const name = callee?.type === 'Identifier' ? callee.name : callee && memberPropertyName(callee);
  return name !== undefined && FILE_PATH_NAME.test(name);
}

/**
 * Whether a handle's initialiser opens a database on a file path (`openDatabase(path)`, `new Database(dbFile, options)`)
 * with a maker named for a database only (`DATABASE_OPENER_NAME`), read in a module the rule does not follow.
 */
function openedOnFilePath(init: TSESTree.Node): boolean {
  const value = unwrapExpression(init, { await: true });
  if (value.type !== 'CallExpression' && value.type !== 'NewExpression') return false;
  const callee = unwrapExpression(value.callee);
  const name = callee.type === 'Identifier' ? callee.name : memberPropertyName(callee);
  return name !== undefined && DATABASE_OPENER_NAME.test(name) && value.arguments[0] !== undefined && namesFilePath(value.arguments[0]);
}

/** How many hops (a `const`, a builder's argument, a client's method) are followed to where a client is built. */
const MAX_HOPS = 4;

/**
 * Whether an expression is a client of an embedded database, built in view: from a module whose
 * clients are embedded (`new Database(':memory:')` of better-sqlite3, `drizzle(sqlite)` of
 * `drizzle-orm/better-sqlite3`), from an embedded URL (`createClient({ url: 'file:app.db' })`,
 * `new Sequelize('sqlite::memory:')`) or options naming an embedded driver, or from such a client
 * (`drizzle(mem)`, `orm.getMigrator()`, `db.migrate`), through the `const`s that hold them.
 */
function isEmbeddedClient(node: TSESTree.Node, sourceCode: SourceCode, hops: number, imported?: ImportedValue): boolean {
  if (hops > MAX_HOPS) return false;
  const value = unwrapExpression(node, { await: true });
  if (value.type === 'Literal')
    return typeof value.value === 'string' && (EMBEDDED_URL.test(value.value) || EMBEDDED_FILE_NAME.test(value.value));
  // `${dataDir}/queue.db`
  if (value.type === 'TemplateLiteral') return EMBEDDED_FILE_NAME.test(value.quasis.at(-1)?.value.cooked ?? '');
  if (value.type === 'Identifier') {
    const init = constInit(value, sourceCode);
    if (init !== undefined && (isEmbeddedClient(init, sourceCode, hops + 1, imported) || openedOnFilePath(init))) return true;
    // A client built in another project module (`import dataSource from './datasource'`).
    const other = init === undefined ? imported?.(value) : undefined;
    if (other !== undefined) return isEmbeddedClient(other.node, other.sourceCode, hops + 1);
    // A `let` given a client in each branch (`if (host) db = new Sequelize(serverOptions); else db = new Sequelize('sqlite::memory:')`): embedded only when every value is.
    if (init === undefined && everyAssignedEmbedded(value, sourceCode, hops, imported)) return true;
    // Built where the rule does not look: what the code says of the name (`sqliteDb`, `db: Database.Database`), unless
    // its type is libSQL's client, which may be a server.
    return namedEmbedded(value, sourceCode) && !typedAsLibsqlClient(value, init, sourceCode);
  }
  if (value.type === 'MemberExpression' && value.object.type === 'ThisExpression') {
    // `this.sequelize` that the class sets up in another method (`this.sequelize = new Sequelize({ dialect: 'sqlite' })`).
    const values = assignedFieldValues(value, sourceCode.visitorKeys);
    if (values.length > 0 && values.every((v) => isEmbeddedClient(v, sourceCode, hops + 1, imported))) return true;
    // A getter of the class (`get models() { return this.sequelize?.models || {} }`).
    const results = values.length === 0 ? getterResults(value) : [];
    if (results.length > 0) return results.every((r) => isEmbeddedClient(r, sourceCode, hops + 1, imported));
    return fieldNamedEmbedded(value, sourceCode);
  }
  // `this.sequelize?.models || {}`: the client when it is set up.
  if (value.type === 'LogicalExpression' && value.operator !== '&&') return isEmbeddedClient(value.left, sourceCode, hops, imported);
  if (value.type === 'MemberExpression') return isEmbeddedClient(value.object, sourceCode, hops + 1, imported);
  // An options object's database (`new Migrator({ db, provider })`, `new Kysely({ dialect: new SqliteDialect(…) })`).
  if (value.type === 'ObjectExpression') return value.properties.some((p) => carriesEmbeddedClient(p, sourceCode, hops, imported));
  // Umzug's `params: [sequelize.getQueryInterface()]`.
  if (value.type === 'ArrayExpression')
    return value.elements.some((e) => e !== null && e.type !== 'SpreadElement' && isEmbeddedClient(e, sourceCode, hops, imported));
  if (value.type !== 'NewExpression' && value.type !== 'CallExpression') return false;
  const callee = unwrapExpression(value.callee);
  // `new Database(…)`, `sqlite3.Database`, `MikroORM.init(…)`: the maker's module decides.
  const maker = chainRoot(callee, { unwrap: 'wrappers' });
  if (maker && importedFromEmbeddedModule(maker, sourceCode)) return true;
  // A maker or method named for SQLite (`SQLiteDB.openDB(path)`, `Database.sqlite(file)`, `new SqliteStore(dir)`).
  if (namesEmbeddedMaker(callee)) return true;
  // A client's own method (`orm.getMigrator()`) returns part of that client.
  if (callee.type === 'MemberExpression' && isEmbeddedClient(callee.object, sourceCode, hops + 1, imported)) return true;
  return value.arguments.some(
    (argument) =>
      isEmbeddedClient(argument, sourceCode, hops + 1, imported) || namesEmbeddedDatabase(migrationOptionsObjects(argument, sourceCode)),
  );
}

/** Whether every value a `let` of this file is given (not `null`, the value before it is set up) is an embedded client, and there is one. */
function everyAssignedEmbedded(identifier: TSESTree.Identifier, sourceCode: SourceCode, hops: number, imported?: ImportedValue): boolean {
  const { values, complete } = assignedValues(sourceCode, identifier);
  const given = values.filter((v) => !(v.type === 'Literal' && v.value === null) && !(v.type === 'Identifier' && v.name === 'undefined'));
  return complete && given.length > 0 && given.every((v) => isEmbeddedClient(v, sourceCode, hops + 1, imported));
}

/** Option keys that hold the database itself: `db`, `database`, `client`, `connection`, `dialect`, `driver`. */
const holdsDatabase = (key: string | undefined): boolean =>
  key !== undefined && (key === 'dialect' || key === 'driver' || namesDatabaseAccess(key));

/** Values that are built (`{ sequelize }`, `[…]`, `new SequelizeStorage(…)`, `sequelize.getQueryInterface()`), not a name or a literal. */
const BUILT_VALUES: ReadonlySet<string> = new Set(['ObjectExpression', 'ArrayExpression', 'NewExpression', 'CallExpression']);

/**
 * Whether a property of an options object hands over an embedded client: under a key that holds
 * one (`db`, `dialect: new SqliteDialect(…)`, `sequelize`), or inside a value built there that
 * carries one — Umzug's `storage: new SequelizeStorage({ sequelize })`, `storageOptions: {
 * sequelize }`, `context: sequelize.getQueryInterface()`, `migrations: { params: […] }`. A name or
 * a literal under another key (`path: 'umzug.db'`, a JSON storage's file) is not a database.
 */
function carriesEmbeddedClient(
  property: TSESTree.ObjectLiteralElement,
  sourceCode: SourceCode,
  hops: number,
  imported: ImportedValue | undefined,
): boolean {
  if (property.type !== 'Property') return false;
  if (holdsDatabase(propertyKeyName(property))) return isEmbeddedClient(property.value, sourceCode, hops, imported);
  // A step into the value's own structure, not a hop to where a name was given its value.
  return BUILT_VALUES.has(unwrapExpression(property.value).type) && isEmbeddedClient(property.value, sourceCode, hops, imported);
}

/**
 * Whether the receiver of a migrator call (`sequelize` in `sequelize.sync()`, `db` in
 * `db.migrate.latest()`, `orm` in `orm.getMigrator().up()`) is built here from a configuration
 * that names an embedded driver or from an embedded client.
 */
export function receiverIsEmbedded(receiver: TSESTree.Node, sourceCode: SourceCode, imported?: ImportedValue): boolean {
  return isEmbeddedClient(receiver, sourceCode, 0, imported);
}

/**
 * Whether a migrator call migrates an embedded client built in view: its receiver
 * (`migrations.latest()` with `const migrations = db.migrate`) or an argument
 * (`migrate(drizzle(new Database(':memory:')), …)`); or runs in the SQLite branch of a start
 * path that supports a server database too (sqlite-branch.ts).
 */
export function migratesEmbeddedClient(call: TSESTree.CallExpression, sourceCode: SourceCode, imported?: ImportedValue): boolean {
  const callee = unwrapExpression(call.callee);
  if (callee.type === 'MemberExpression' && isEmbeddedClient(callee.object, sourceCode, 0, imported)) return true;
  return call.arguments.some((argument) => isEmbeddedClient(argument, sourceCode, 0, imported)) || runsInSqliteBranch(call, sourceCode);
}

/** What a name imported from another project module stands for there (a client or data source built in that module). */
export function importedValueIn(context: DetectContext): ImportedValue {
  return (identifier) => {
    const value = projectValueOf(context, identifier);
    return value && value.module.path !== context.filename ? { node: value.node, sourceCode: value.module.sourceCode } : undefined;
  };
}
