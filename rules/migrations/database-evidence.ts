// Whether a project function may reach a database, read from its body: a name of a database
// handle or session (`db`, `pool`, `conn`, `trx`, a `Knex` or `PoolClient` annotation), a binding
// imported from a module named for a database (a driver, an ORM, the project's `./db`), SQL DDL in
// a string, or a function it calls (same module or another, three deep) that does. A runner named
// for migrations whose body shows none of these (`runMigrations(parsedJson, SETTINGS_PATH)`
// rewriting keys of a settings file) migrates something other than the schema.
import type { TSESTree } from '@typescript-eslint/utils';
import { defineFunctionFact, type FollowCall, type ProjectFunction, type ProjectModule } from '../../analysis/modules/index.js';
import { moduleBindings } from '../../analysis/imports/module-bindings.js';
import { DATABASE_MODULE_SPECIFIER, namesDatabaseAccess } from '../../src/knowledge/database-access.js';
import { SCHEMA_DDL } from '../../src/knowledge/migrators.js';

type Node = TSESTree.Node;

/** Per module: the local names bound to imports or requires of modules named for a database. */
const bindings = new WeakMap<object, ReadonlySet<string>>();
function databaseBindings(module: ProjectModule): ReadonlySet<string> {
  const program = module.sourceCode.ast as TSESTree.Program;
  let names = bindings.get(program);
  if (!names) {
    names = new Set([...moduleBindings(program)].flatMap(([name, specifier]) => (DATABASE_MODULE_SPECIFIER.test(specifier) ? [name] : [])));
    bindings.set(program, names);
  }
  return names;
}

/** Whether one node, on its own, shows a database. */
function showsDatabase(node: Node, imported: ReadonlySet<string>): boolean {
  if (node.type === 'Identifier') return namesDatabaseAccess(node.name) || imported.has(node.name);
  if (node.type === 'Literal') return typeof node.value === 'string' && SCHEMA_DDL.test(node.value);
  return node.type === 'TemplateElement' && SCHEMA_DDL.test(node.value.raw);
}

function reaches(fn: ProjectFunction, follow: FollowCall): boolean {
  const imported = databaseBindings(fn.module);
  const keys = fn.module.sourceCode.visitorKeys as Record<string, readonly string[] | undefined>;
  const visit = (node: Node): boolean => {
    // The function's own name is what is being judged, not evidence.
    if (node === fn.fn.id) return false;
    if (showsDatabase(node, imported)) return true;
    if (node.type === 'CallExpression') {
      const inner = follow(node.callee);
      if (inner && mayReachDatabase(inner)) return true;
    }
    for (const key of keys[node.type] ?? []) {
      const child = (node as unknown as Record<string, unknown>)[key];
      for (const item of Array.isArray(child) ? child : [child])
        if (item && typeof (item as Node).type === 'string' && visit(item as Node)) return true;
    }
    return false;
  };
  return visit(fn.fn);
}

/** Whether a project function may reach a database (see above). Unknown (a cycle, an error): it may. */
export const mayReachDatabase: (fn: ProjectFunction) => boolean = defineFunctionFact<boolean>('may reach a database', true, reaches);
