// What a project factory hands back, read in its own module through the cross-file layer, for a
// method called on its result: `const migrator = getMigrator(db); await migrator.migrateToLatest()`,
// `await createTools(db).sync()`, `const tools = makeTools(knex); await tools.migrate()`.
// - A migrator or client it builds (`return new Migrator({ db, provider })` of Kysely,
//   `new Umzug(…)`, `new Sequelize(…)`, `new DataSource(…)`, also through a `const` of its body):
//   the call is a run when the method is one of that library's schema-writing methods
//   (SCHEMA_WRITE_METHODS, the entries reached without a `via`), unless what it builds stands on
//   an embedded database in that module (`new Migrator({ db: new Kysely({ dialect: new SqliteDialect(…) }) })`).
// - An object of tools (`return { async sync() { await sequelize.sync() } }`): the call runs that
//   method's body, a run when the body runs schema writes (`runsSchemaWrites`, three calls deep);
//   not one when the body shows no database either (`mayReachDatabase`: a settings file's keys
//   rewritten). A body that reaches a database without a known schema write (a loop sending SQL
//   files) is left to the call's names.
// Anything else — a package's factory, a class instance, a value the factory does not build, a
// method it does not hand out — leaves the call to the rule's other checks. Asked only of calls
// the rule already holds as candidates.
import { chainRoot } from '../../analysis/ast/chain-root.js';
import type { TSESTree } from '@typescript-eslint/utils';
import type { DetectContext } from '../../analysis/detect-context.js';
import { projectFunctionIn, projectFunctionOf, type ProjectFunction } from '../../analysis/modules/index.js';
import { returnedExpressions } from '../../analysis/ast/returned-expressions.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { memberPropertyName, propertyKeyName } from '../../analysis/ast/property-names.js';
import { constantInitializer } from '../../analysis/sql/sql-text-model.js';
import { moduleBindings } from '../../analysis/imports/module-bindings.js';
import { SCHEMA_WRITE_METHODS, type SchemaWriteMethod } from '../../src/knowledge/migrators.js';
import { hasEvidence } from './method-entries.js';
import { receiverIsEmbedded } from './embedded-database.js';
import { runsSchemaWrites } from './cross-file.js';
import { mayReachDatabase } from './database-evidence.js';
import { runsInSqliteBranch } from './sqlite-branch.js';
import { calleeName } from '../../analysis/ast/callee-name.js';

type Node = TSESTree.Node;

/** What calling a method on a factory's result does: a schema write (`runs`) or not; `shown` as `getMigrator(…).migrateToLatest()`. */
export interface FactoryMethod {
  runs: boolean;
  shown: string;
}

const isFunctionLike = (node: Node): node is TSESTree.FunctionExpression | TSESTree.ArrowFunctionExpression =>
  node.type === 'FunctionExpression' || node.type === 'ArrowFunctionExpression';

/** The factory call a receiver is: `getMigrator(db)` itself, or the `const` that holds it (awaited or not). */
function factoryCallOf(receiver: Node, sourceCode: ProjectFunction['module']['sourceCode']): TSESTree.CallExpression | undefined {
  let value = unwrapExpression(receiver, { await: true });
  if (value.type === 'Identifier') {
    const init = constantInitializer(value, sourceCode);
    if (init === undefined) return undefined;
    value = unwrapExpression(init as Node, { await: true });
  }
  return value.type === 'CallExpression' ? value : undefined;
}

/** What a returned name stands for in the factory's body (`const migrator = new Migrator(…); return migrator`). */
function builtValue(node: Node, factory: ProjectFunction): Node {
  const value = unwrapExpression(node, { await: true });
  if (value.type !== 'Identifier') return value;
  const init = constantInitializer(value, factory.module.sourceCode);
  return init === undefined ? value : unwrapExpression(init as Node, { await: true });
}

/** The catalogue entry for `method` on what a `new X(…)` builds, by the module `X` comes from (`Migrator` of kysely, `Umzug` of umzug). */
function constructedEntry(built: Node, method: string, factory: ProjectFunction): SchemaWriteMethod | undefined {
  if (built.type !== 'NewExpression') return undefined;
  const maker = chainRoot(built.callee, { unwrap: 'wrappers' });
  const specifier = maker ? moduleBindings(factory.module.sourceCode.ast as TSESTree.Program).get(maker.name) : undefined;
  if (specifier === undefined) return undefined;
  const modules = new Set([specifier]);
  return SCHEMA_WRITE_METHODS.find(
    (m) =>
      m.via === undefined && m.methods.includes(method) && (m.evidence === undefined ? specifier === m.library : hasEvidence(m, modules)),
  );
}

/** The method an object literal hands out under `name`, as a project function of the factory's module. */
function handedOutMethod(object: TSESTree.ObjectExpression, name: string, factory: ProjectFunction): ProjectFunction | undefined {
  for (const property of object.properties) {
    if (property.type !== 'Property' || propertyKeyName(property) !== name) continue;
    const value = unwrapExpression(property.value);
    return isFunctionLike(value) ? { fn: value, module: factory.module, name } : projectFunctionIn(factory, value);
  }
  return undefined;
}

/**
 * What `receiver.method()` does when `receiver` is the result of a project factory; undefined
 * when the receiver is not one, or the factory's result is not a migrator, a schema client or an
 * object of tools the layer can read.
 */
export function factoryResultMethod(context: DetectContext, call: TSESTree.CallExpression): FactoryMethod | undefined {
  const callee = unwrapExpression(call.callee);
  const method = callee.type === 'MemberExpression' ? memberPropertyName(callee) : undefined;
  if (callee.type !== 'MemberExpression' || method === undefined) return undefined;
  const made = factoryCallOf(callee.object, context.sourceCode);
  const factory = made && projectFunctionOf(context, made.callee);
  if (!made || !factory?.fn.body) return undefined;
  const shown = `${factory.name || context.sourceCode.getText(made.callee)}(…).${method}()`;
  for (const returned of returnedExpressions(factory.fn)) {
    const built = builtValue(returned, factory);
    if (constructedEntry(built, method, factory)) return { runs: !receiverIsEmbedded(built, factory.module.sourceCode), shown };
    const tool = built.type === 'ObjectExpression' ? handedOutMethod(built, method, factory) : undefined;
    if (!tool) continue;
    // A body that runs no schema write but may reach a database (a loop applying SQL files) is left to the call's names.
    if (runsSchemaWrites(tool)) return { runs: true, shown };
    return mayReachDatabase(tool) ? undefined : { runs: false, shown };
  }
  return undefined;
}

/** A method that writes the schema only as a factory's tool or a catalogue client's (`createTools(db).sync()`): never a runner by its name. */
const FACTORY_ONLY_METHOD = 'sync';

/**
 * For a call the rule holds as a runner candidate: how it is shown when the factory behind its
 * receiver says it runs schema writes (and it is not in a SQLite branch), `null` when the factory
 * says it does not (or it is a `sync()` with no factory behind it), undefined to ask its names.
 */
export function factoryRunnerVerdict(context: DetectContext, call: TSESTree.CallExpression): string | null | undefined {
  const made = factoryResultMethod(context, call);
  if (made) return made.runs && !runsInSqliteBranch(call, context.sourceCode) ? made.shown : null;
  return calleeName(call) === FACTORY_ONLY_METHOD ? null : undefined;
}
