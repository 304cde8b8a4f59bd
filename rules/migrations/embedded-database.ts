// Whether a schema write targets an embedded file database (`EMBEDDED_DRIVER_VALUES`): the
// options object beside `synchronize`, or the configuration the receiver of `sync()` /
// `migrate.latest()` was built from, names a SQLite-like driver by a literal. A driver read from
// the environment, or a configuration out of view, is not known to be embedded.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { findVariable } from '@eslint-community/eslint-utils';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { propertyKeyName } from '../../analysis/ast/property-names.js';
import { migrationOptionsObjects } from './options-objects.js';
import {
  EMBEDDED_DRIVER_CLASSES,
  EMBEDDED_DRIVER_VALUES,
  EMBEDDED_ORM_MODULES,
  EMBEDDED_URL,
} from '../../src/knowledge/embedded-databases.js';

type SourceCode = Readonly<TSESLint.SourceCode>;

/** Whether one of these option objects names an embedded driver (`type: 'better-sqlite3'`, `dialect: 'sqlite'`, `driver: SqliteDriver`). */
export function namesEmbeddedDatabase(objects: readonly TSESTree.ObjectExpression[]): boolean {
  return objects.some((object) =>
    object.properties.some((property) => {
      if (property.type !== 'Property') return false;
      const key = propertyKeyName(property);
      const value = unwrapExpression(property.value);
      if (key === 'driver') return value.type === 'Identifier' && EMBEDDED_DRIVER_CLASSES.includes(value.name);
      const drivers =
        key && Object.hasOwn(EMBEDDED_DRIVER_VALUES, key) ? EMBEDDED_DRIVER_VALUES[key as keyof typeof EMBEDDED_DRIVER_VALUES] : undefined;
      return drivers !== undefined && value.type === 'Literal' && typeof value.value === 'string' && drivers.includes(value.value);
    }),
  );
}

/** The `const` initialiser a name stands for. */
function constInit(identifier: TSESTree.Identifier, sourceCode: SourceCode): TSESTree.Node | undefined {
  const variable = findVariable(sourceCode.getScope(identifier) as never, identifier) as { defs: Array<{ node: TSESTree.Node }> } | null;
  const def = variable?.defs.length === 1 ? variable.defs[0]?.node : undefined;
  return def?.type === 'VariableDeclarator' && def.parent.type === 'VariableDeclaration' && def.parent.kind === 'const'
    ? (def.init ?? undefined)
    : undefined;
}

/** Whether a name is imported from a module that only speaks SQLite (`import { MikroORM } from '@mikro-orm/sqlite'`). */
function importedFromEmbeddedOrm(identifier: TSESTree.Identifier, sourceCode: SourceCode): boolean {
  const variable = findVariable(sourceCode.getScope(identifier) as never, identifier) as {
    defs: Array<{ node: TSESTree.Node; parent?: TSESTree.Node | null }>;
  } | null;
  const parent = variable?.defs[0]?.parent;
  return parent?.type === 'ImportDeclaration' && EMBEDDED_ORM_MODULES.includes(parent.source.value);
}

/**
 * Whether the receiver of a migrator call (`sequelize` in `sequelize.sync()`, `db` in
 * `db.migrate.latest()`, `orm` in `orm.getMigrator().up()`) is built here from a configuration
 * that names an embedded driver.
 */
export function receiverIsEmbedded(receiver: TSESTree.Node, sourceCode: SourceCode): boolean {
  let root = unwrapExpression(receiver);
  while (root.type === 'MemberExpression' || root.type === 'CallExpression')
    root = unwrapExpression(root.type === 'MemberExpression' ? root.object : root.callee);
  if (root.type !== 'Identifier') return false;
  const init = constInit(root, sourceCode);
  const built = init && unwrapExpression(init.type === 'AwaitExpression' ? init.argument : init);
  if (built?.type !== 'NewExpression' && built?.type !== 'CallExpression') return false;
  const callee = unwrapExpression(built.callee);
  const maker = callee.type === 'MemberExpression' ? unwrapExpression(callee.object) : callee;
  if (maker.type === 'Identifier' && importedFromEmbeddedOrm(maker, sourceCode)) return true;
  return built.arguments.some((argument) => {
    const value = unwrapExpression(argument);
    if (value.type === 'Literal' && typeof value.value === 'string') return EMBEDDED_URL.test(value.value);
    return namesEmbeddedDatabase(migrationOptionsObjects(argument, sourceCode));
  });
}
