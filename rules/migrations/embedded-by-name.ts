// A database handle told to be an embedded file database without seeing where it is built (a
// module the rule cannot read, a parameter, a field set up elsewhere): by what the code says of it
// — its name holds `sqlite` (`sqliteDb.migrate()`, `this.sqlite`), it is imported from a module
// named for SQLite (`import db from './store/sqlite'`) or from a SQLite driver, or it is declared
// with a type from one (`db: Database.Database` of better-sqlite3, `BetterSQLite3Database`,
// `private store: SqliteStore`). libSQL (`libsql`, which may be a server) holds no such word.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import { classFieldValues, enclosingClass, fieldName } from '../../analysis/ast/class-fields.js';
import { moduleBindings } from '../../analysis/imports/module-bindings.js';
import { EMBEDDED_CLIENT_MODULES, EMBEDDED_MAKER_NAME } from '../../src/knowledge/embedded-databases.js';

type SourceCode = Readonly<TSESLint.SourceCode>;

/** The last segment of a module specifier (`./store/sqlite.js` → `sqlite.js`). */
const lastSegment = (specifier: string): string => specifier.slice(specifier.lastIndexOf('/') + 1);

/** Whether a module's specifier says its exports are SQLite's: a SQLite driver, or a project module named for SQLite. */
function isSqliteModule(specifier: string | undefined): boolean {
  return specifier !== undefined && (EMBEDDED_CLIENT_MODULES.includes(specifier) || EMBEDDED_MAKER_NAME.test(lastSegment(specifier)));
}

/** The names a type annotation is spelt with (`Database.Database` → Database, Database; `Db | null` → Db), not its type arguments (`Kysely<SqliteSchema>` says nothing of the database). */
function typeNames(node: TSESTree.Node | undefined, out: string[] = []): string[] {
  if (!node) return out;
  if (node.type === 'TSTypeAnnotation') return typeNames(node.typeAnnotation, out);
  if (node.type === 'TSTypeReference') {
    let name: TSESTree.EntityName = node.typeName;
    while (name.type === 'TSQualifiedName') {
      out.push(name.right.name);
      name = name.left;
    }
    if (name.type === 'Identifier') out.unshift(name.name);
  }
  if (node.type === 'TSUnionType') for (const member of node.types) typeNames(member, out);
  return out;
}

/** Whether a type annotation names a SQLite type: one whose name holds `sqlite`, or whose first name is imported from a SQLite module. */
function isSqliteType(annotation: TSESTree.Node | undefined, sourceCode: SourceCode): boolean {
  const names = typeNames(annotation);
  if (names.some((name) => EMBEDDED_MAKER_NAME.test(name))) return true;
  const first = names[0];
  return first !== undefined && isSqliteModule(moduleBindings(sourceCode.ast as TSESTree.Program).get(first));
}

/** Whether a name in code says it holds an embedded database: its own name, the module it is imported from, or its declared type. */
export function namedEmbedded(identifier: TSESTree.Identifier, sourceCode: SourceCode): boolean {
  if (EMBEDDED_MAKER_NAME.test(identifier.name)) return true;
  if (isSqliteModule(moduleBindings(sourceCode.ast as TSESTree.Program).get(identifier.name))) return true;
  const def = scopeVariable(sourceCode, identifier)?.defs[0];
  const declared = def?.name;
  return declared?.type === 'Identifier' && isSqliteType(declared.typeAnnotation, sourceCode);
}

/** Whether `this.name` says it holds an embedded database: the field's name, or a type the class declares it with. */
export function fieldNamedEmbedded(member: TSESTree.MemberExpression, sourceCode: SourceCode): boolean {
  const name = fieldName(member);
  if (name === undefined) return false;
  if (EMBEDDED_MAKER_NAME.test(name)) return true;
  const owner = enclosingClass(member);
  const given = owner ? (classFieldValues(owner, sourceCode.visitorKeys).get(name) ?? []) : [];
  return given.some((value) => value.type === 'TSTypeAnnotation' && isSqliteType(value, sourceCode));
}
