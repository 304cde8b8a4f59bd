// A migrator class of the project that extends a library's migrator (`class SchemaMigrator extends
// Migrator` of Kysely) runs on whatever database its constructor is handed: its own
// `this.migrateToLatest()` says nothing about that database, the modules that build it do. When
// the class is exported, its constructor hands one of its parameters to `super({ db })`, and every
// construction of it in the package (`new SchemaMigrator(db, migrations)`, read through the
// cross-file layer, bounded) passes there a client of an embedded database built in view in that
// module (a SQLite file per host), it migrates no shared schema. Asked only of a call about to be
// reported whose receiver is `this`.
import type { TSESTree } from '@typescript-eslint/utils';
import type { DetectContext } from '../utils/create-rule.js';
import { propertyKeyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { moduleBindings } from '../../analysis/imports/module-bindings.js';
import { constructionsOfExport } from '../../analysis/modules/importers.js';
import { namesDatabaseAccess } from '../../src/knowledge/database-access.js';
import { MIGRATOR_CLASSES } from '../../src/knowledge/migrators.js';
import { receiverIsEmbedded } from './embedded-database.js';

type Class = TSESTree.ClassDeclaration | TSESTree.ClassExpression;

/** The class whose method holds `node` (arrows keep `this`; a `function` of its own does not). */
function enclosingClass(node: TSESTree.Node): Class | undefined {
  for (let current = node.parent; current; current = current.parent) {
    if (current.type === 'ClassBody') return current.parent;
    if (current.type === 'FunctionDeclaration' || (current.type === 'FunctionExpression' && current.parent?.type !== 'MethodDefinition'))
      return undefined;
  }
  return undefined;
}

/** Whether the class extends a library's migrator class (`MIGRATOR_CLASSES`), imported under any local name. */
function extendsLibraryMigrator(cls: Class, program: TSESTree.Program): boolean {
  if (cls.superClass?.type !== 'Identifier') return false;
  const specifier = moduleBindings(program).get(cls.superClass.name);
  return (
    specifier !== undefined &&
    MIGRATOR_CLASSES.some((api) => api.modules.some((module) => specifier === module || specifier.startsWith(`${module}/`)))
  );
}

/** The name a constructor parameter binds (`db`, `public db: Kysely<T>`, `db = defaultDb`). */
function parameterName(parameter: TSESTree.Parameter): string | undefined {
  const bound = parameter.type === 'TSParameterProperty' ? parameter.parameter : parameter;
  const plain = bound.type === 'AssignmentPattern' ? bound.left : bound;
  return plain.type === 'Identifier' ? plain.name : undefined;
}

/** The position of the constructor parameter handed to `super({ db })` as the database. */
function databaseParameterIndex(cls: Class): number | undefined {
  const constructor = cls.body.body.find(
    (member): member is TSESTree.MethodDefinition => member.type === 'MethodDefinition' && member.kind === 'constructor',
  );
  if (!constructor?.value.body) return undefined;
  const names = constructor.value.params.map(parameterName);
  for (const statement of constructor.value.body.body) {
    const call = statement.type === 'ExpressionStatement' ? statement.expression : undefined;
    if (call?.type !== 'CallExpression' || call.callee.type !== 'Super') continue;
    const [options] = call.arguments;
    if (options?.type !== 'ObjectExpression') return undefined;
    for (const property of options.properties) {
      const key = property.type === 'Property' ? propertyKeyName(property) : undefined;
      if (property.type !== 'Property' || key === undefined || !namesDatabaseAccess(key) || property.value.type !== 'Identifier') continue;
      const index = names.indexOf(property.value.name);
      return index >= 0 ? index : undefined;
    }
    return undefined;
  }
  return undefined;
}

/** Whether the call (`this.migrateToLatest()`, receiver `this`) is a method of an exported migrator subclass that every construction in the package builds on an embedded database. */
export function embeddedSubclass(context: DetectContext, call: TSESTree.CallExpression): boolean {
  const callee = unwrapExpression(call.callee);
  if (callee.type !== 'MemberExpression' || callee.object.type !== 'ThisExpression') return false;
  const cls = enclosingClass(call);
  const name = cls?.type === 'ClassDeclaration' && cls.parent.type === 'ExportNamedDeclaration' ? cls.id?.name : undefined;
  if (!cls || name === undefined || !extendsLibraryMigrator(cls, context.sourceCode.ast as TSESTree.Program)) return false;
  const index = databaseParameterIndex(cls);
  if (index === undefined) return false;
  const built = constructionsOfExport(context, name);
  if (!built || built.length === 0) return false;
  return built.every(({ module, calls }) =>
    calls.every((construction) => {
      const database = construction.arguments[index];
      return database !== undefined && receiverIsEmbedded(database, module.sourceCode);
    }),
  );
}
