// A project's own migrator class (`class DataMigrator extends Migrator`, a migration tool's or a
// library's) defines its verbs by calling its base: `async up() { return this.migrateUp(); }`.
// Such a method is the migrator's API, not a run: it runs where something calls `migrator.up()`,
// and that call is the one reported (by its receiver and verb). A start hook of the class
// (`onModuleInit`) or a method named for anything else (`connect()`) is not such a definition.
// When other modules of the package build the class (`new TenantMigrator(db).latest()`), those
// constructions say what it migrates (`embeddedSubclass`): the method's finding stands for them.
import type { TSESTree } from '@typescript-eslint/utils';
import type { DetectContext } from '../utils/create-rule.js';
import { constructionsOfExport } from '../../analysis/modules/importers.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { MIGRATOR_CLASS_NAME, namesMigratorVerb } from '../../src/knowledge/migrator-methods.js';

/** The name a class extends, as written: `Migrator` of `extends Migrator`, of `extends kysely.Migrator`. */
function superClassName(cls: TSESTree.ClassDeclaration | TSESTree.ClassExpression): string | undefined {
  const base = cls.superClass && unwrapExpression(cls.superClass);
  if (base?.type === 'Identifier') return base.name;
  return base?.type === 'MemberExpression' ? memberPropertyName(base) : undefined;
}

/** The method of a class whose body holds `node` (arrows keep `this`; a `function` of its own does not). */
function enclosingMethod(node: TSESTree.Node): TSESTree.MethodDefinition | undefined {
  for (let current = node.parent; current; current = current.parent) {
    if (current.type === 'MethodDefinition') return current;
    if (current.type === 'FunctionDeclaration' || (current.type === 'FunctionExpression' && current.parent?.type !== 'MethodDefinition'))
      return undefined;
  }
  return undefined;
}

/**
 * The class, when `node` is a call on `this` or `super` (`this.migrateUp()`, `this.runMigration(name,
 * 'Up')`) inside a method named for a migrator's verb (`up`, `down`, `migrateToLatestOrThrow`) of a
 * class that extends a migrator (`MIGRATOR_CLASS_NAME`); undefined otherwise.
 */
function migratorClassOfVerb(node: TSESTree.Node): TSESTree.ClassDeclaration | TSESTree.ClassExpression | undefined {
  if (node.type !== 'CallExpression') return undefined;
  const callee = unwrapExpression(node.callee);
  if (callee.type !== 'MemberExpression' || (callee.object.type !== 'ThisExpression' && callee.object.type !== 'Super')) return undefined;
  const method = enclosingMethod(node);
  if (method?.kind !== 'method' || method.key.type !== 'Identifier' || !namesMigratorVerb(method.key.name)) return undefined;
  const cls = method.parent.parent;
  const name = superClassName(cls);
  return name !== undefined && MIGRATOR_CLASS_NAME.test(name) ? cls : undefined;
}

/** Whether other modules of the package build the class (`new TenantMigrator(db)`), by its exported name. */
function builtElsewhere(context: DetectContext, cls: TSESTree.ClassDeclaration | TSESTree.ClassExpression): boolean {
  const name = cls.type === 'ClassDeclaration' && cls.parent.type === 'ExportNamedDeclaration' ? cls.id?.name : undefined;
  const built = name === undefined ? undefined : constructionsOfExport(context, name);
  return built !== undefined && built.length > 0;
}

/** `report`, silent for schema-write calls that define a migrator's verb (`migratorClassOfVerb`) of a class no other module builds. */
export function outsideMigratorVerbDefinitions<Report extends (descriptor: never) => void>(context: DetectContext, report: Report): Report {
  const answers = new Map<TSESTree.Node, boolean>();
  return ((descriptor: { messageId: string; node: TSESTree.Node }) => {
    const cls = descriptor.messageId === 'schemaWriteCall' ? migratorClassOfVerb(descriptor.node) : undefined;
    if (cls !== undefined) {
      let definition = answers.get(cls);
      if (definition === undefined) answers.set(cls, (definition = !builtElsewhere(context, cls)));
      if (definition) return;
    }
    report(descriptor as never);
  }) as unknown as Report;
}
