// A project's own way of running its migrations, told by names when the migrator itself is
// out of sight (in another module, behind a client class): `runMigrations(config)`,
// `await migrateDb()`, `dbClient.migrate()`, `migrate(db)`, `this.migrate({ migrations })`,
// `migrations.up()`. The bare verb `migrate` (and names built on it, `migrateKeystore`) counts
// only with a database or migrations in view (a receiver or argument named like a database
// handle, a `{ migrations }` argument, an import from a module named for migrations): it also
// names state and data migrations.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import {
  MIGRATE_ARGUMENT_KEYS,
  mayNameMigrationRun,
  MIGRATION_MODULE_SPECIFIER,
  MIGRATOR_RUN_METHODS,
  RUN_MIGRATIONS_API,
  START_HOOKS,
  namesDatabaseHandle,
  namesMigrationRunner,
  namesMigrator,
  withoutFailureTail,
} from '../../src/knowledge/migrators.js';
import { namesLibraryMigrationRunner, namesMigrationModule } from '../../src/knowledge/migration-runs.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { containerProvidedClass } from '../../analysis/ast/container-provided-class.js';
import { memberPropertyName, propertyKeyName } from '../../analysis/ast/property-names.js';

type SourceCode = Readonly<TSESLint.SourceCode>;

/** The name an expression ends in: `db` of `db`, `knex` of `this.db.knex`, `DatabaseClient` of `DatabaseClient`. */
function lastName(node: TSESTree.Node): string | undefined {
  const value = unwrapExpression(node, { await: true });
  if (value.type === 'Identifier') return value.name;
  if (value.type === 'MemberExpression') return memberPropertyName(value);
  // `app.get(SchemaMigrationService)`: the class the container hands out.
  return containerProvidedClass(value)?.name;
}

/** An argument that puts a database or migrations in view: `db`, `this.knex`, `{ migrations: … }`. */
export function isDatabaseArgument(node: TSESTree.Node): boolean {
  const value = unwrapExpression(node);
  if (value.type === 'ObjectExpression') {
    return value.properties.some((p) => p.type === 'Property' && MIGRATE_ARGUMENT_KEYS.includes(propertyKeyName(p) ?? ''));
  }
  const name = lastName(value);
  return name !== undefined && namesDatabaseHandle(name);
}

/** Whether `callee` is imported from a module named for migrations (`import migrate from './utils/migrate.js'`). */
function isImportedFromMigrationModule(callee: TSESTree.Identifier, sourceCode: SourceCode): boolean {
  try {
    const def = definitionOf(callee, sourceCode);
    if (def?.type === 'ImportBinding' && def.parent?.type === 'ImportDeclaration')
      return MIGRATION_MODULE_SPECIFIER.test(def.parent.source.value);
    // `const migrate = require('./migrate')`, `const { migrate } = require('./db/migrator')`
    const init = def?.type === 'Variable' && def.node.type === 'VariableDeclarator' ? def.node.init : null;
    const required = init ? unwrapExpression(init) : undefined;
    const source = required?.type === 'CallExpression' ? required.arguments[0] : undefined;
    return source?.type === 'Literal' && typeof source.value === 'string' && MIGRATION_MODULE_SPECIFIER.test(source.value);
  } catch {
    return false;
  }
}

type Definition = { type: string; node: TSESTree.Node; parent?: TSESTree.Node | null };

function definitionOf(callee: TSESTree.Identifier, sourceCode: SourceCode): Definition | undefined {
  return scopeVariable(sourceCode, callee)?.defs[0];
}

/**
 * Whether the callee is defined in this file (a function, a `const` function, a method of the
 * enclosing class), or is replica-guard's own `runMigrations`: then its body, not its name,
 * says what it does — and the body's schema writes are reported where they are.
 */
function isDefinedHereOrGuarded(callee: TSESTree.Node, sourceCode: SourceCode): boolean {
  if (callee.type === 'Identifier') {
    const def = definitionOf(callee, sourceCode);
    if (def?.type === 'FunctionName') return true;
    if (def?.type === 'Variable' && def.node.type === 'VariableDeclarator' && def.node.init) {
      const init = unwrapExpression(def.node.init);
      if (init.type === 'ArrowFunctionExpression' || init.type === 'FunctionExpression') return true;
    }
    return (
      def?.type === 'ImportBinding' &&
      def.parent?.type === 'ImportDeclaration' &&
      (RUN_MIGRATIONS_API.modules as readonly string[]).includes(def.parent.source.value)
    );
  }
  if (callee.type !== 'MemberExpression' || unwrapExpression(callee.object).type !== 'ThisExpression') return false;
  const name = memberPropertyName(callee);
  for (let node: TSESTree.Node | undefined = callee.parent; node; node = node.parent) {
    if (node.type === 'ClassBody')
      return node.body.some(
        (m) => (m.type === 'MethodDefinition' || m.type === 'PropertyDefinition') && m.key.type === 'Identifier' && m.key.name === name,
      );
  }
  return false;
}

/**
 * Whether `this.<name>()` is a migration runner class running itself as the app starts: a run
 * method (`this.run({ action: 'up' })`, `this.runPending()`) called from a start hook
 * (`onApplicationBootstrap`, `START_HOOKS`) of a class named for migrations (`MigrationService`,
 * `SchemaMigrator`). Its own body is often a loop over loaded files that no catalogue names.
 */
function runsItselfAtStart(call: TSESTree.CallExpression, name: string, receiver: TSESTree.Node | undefined): boolean {
  if (receiver?.type !== 'ThisExpression') return false;
  if (!MIGRATOR_RUN_METHODS.includes(name) && !namesMigrationRunner(name) && !mayNameMigrationRun(name)) return false;
  for (let node: TSESTree.Node | undefined = call.parent; node; node = node.parent) {
    if (node.type !== 'MethodDefinition') continue;
    const hook = node.key.type === 'Identifier' ? node.key.name : undefined;
    const cls = node.parent.parent;
    const className = (cls.type === 'ClassDeclaration' || cls.type === 'ClassExpression') && cls.id ? cls.id.name : undefined;
    return hook !== undefined && START_HOOKS.includes(hook) && className !== undefined && namesMigrator(className);
  }
  return false;
}

/** How a call runs migrations by its names (`migrateDb()`, `dbClient.migrate()`), or undefined when it does not visibly. */
export function migrationRunnerCall(call: TSESTree.CallExpression, sourceCode: SourceCode): string | undefined {
  const callee = unwrapExpression(call.callee);
  const name = callee.type === 'Identifier' ? callee.name : memberPropertyName(callee);
  if (name === undefined) return undefined;
  const receiver = callee.type === 'MemberExpression' ? unwrapExpression(callee.object) : undefined;
  const receiverName = receiver && lastName(receiver);
  // A runner class run from its own start hook: its body may hide the migrator, the hook says when it runs.
  if (runsItselfAtStart(call, name, receiver)) return `this.${name}()`;
  if (isDefinedHereOrGuarded(callee, sourceCode)) return undefined;
  const shown = receiver ? `${receiver.type === 'ThisExpression' ? 'this' : (receiverName ?? '…')}.${name}()` : `${name}()`;
  // A runner named for how it fails (`db.migrateToLatestOrThrow()`, `this.database.runMigrationsOrExit()`),
  // on a handle named like the database: a migrator or a helper's result may be a per-host file's.
  const tailless = withoutFailureTail(name);
  if (tailless !== undefined && receiverName !== undefined && namesDatabaseHandle(receiverName))
    return namesMigrationRunner(tailless) || mayNameMigrationRun(tailless) ? shown : undefined;
  if (namesMigrationRunner(name) || namesLibraryMigrationRunner(name)) return shown;
  if (receiverName !== undefined && MIGRATOR_RUN_METHODS.includes(name) && namesMigrator(receiverName)) return shown;
  if (!mayNameMigrationRun(name)) return undefined;
  // An application's migration module asked to migrate (`self.apos.migration.migrate()`): a member, not one migration of a loop.
  if (receiver?.type === 'MemberExpression' && receiverName !== undefined && namesMigrationModule(receiverName)) return shown;
  if (receiverName !== undefined && (namesDatabaseHandle(receiverName) || namesMigrator(receiverName))) return shown;
  if (call.arguments.some(isDatabaseArgument)) return shown;
  if (callee.type === 'Identifier' && isImportedFromMigrationModule(callee, sourceCode)) return shown;
  return undefined;
}

/**
 * Whether a call sits in the definition of a migration rather than in a run of them: the `up` /
 * `down` of a migration object (`{ up: async () => migration.up(ctx) }`, `{ async up() { … } }`),
 * as an Umzug `resolve` builds them.
 */
export function isInMigrationDefinition(node: TSESTree.Node): boolean {
  for (let current: TSESTree.Node | undefined = node.parent; current; current = current.parent) {
    const isFunction =
      current.type === 'ArrowFunctionExpression' || current.type === 'FunctionExpression' || current.type === 'FunctionDeclaration';
    if (!isFunction) continue;
    // Object members only: a runner class's `async up() { await this.umzug.up(); }` runs them.
    const holder = current.parent;
    const key = holder?.type === 'Property' && holder.value === current ? propertyKeyName(holder) : undefined;
    if (key === 'up' || key === 'down') return true;
  }
  return false;
}
