// Hand-written migrators that no catalogue names, told by their loop: one that sends each
// statement of a migrations list to the database (`for (const sql of buildMigrations(db)) await
// client.command({ query: sql })`) in a function this file calls (`await this.migrate(client)` in
// `onModuleInit`), and one that loads each module of a migrations folder and runs it (`const up =
// (await import(`./migrations/${file}`)).default; await up(tx);`). Each replica that runs either
// sends the same DDL. Asked only of files whose text names migrations.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { propertyKeyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { nodeAt } from '../../analysis/ast/node-at.js';
import { calleeName } from '../../analysis/ast/callee-name.js';
import { SQL_METHODS } from '../../src/knowledge/sql.js';
import { NAMES_MIGRATIONS } from '../../src/knowledge/migrator-methods.js';
import { STATEMENT_METHODS } from '../../src/knowledge/migration-runs.js';
import { EMBEDDED_CLIENT_MODULES } from '../../src/knowledge/embedded-databases.js';
import { callsNamed, memberCallsNamed } from './called-names.js';
import { loopedCollection, namesMigrations, sqlFileRuns } from './sql-file-runs.js';

type SourceCode = Readonly<TSESLint.SourceCode>;
type Call = TSESTree.CallExpression;

const SENDERS: ReadonlySet<string> = new Set([...SQL_METHODS, ...STATEMENT_METHODS]);

/** The names a `for (const … of …)` binds, or the first parameter of a `forEach` / `map` callback, around `node`. */
function loopVariables(node: TSESTree.Node): Set<string> {
  const names = new Set<string>();
  for (let child: TSESTree.Node = node, at = child.parent; at; child = at, at = at.parent) {
    if ((at.type === 'ForOfStatement' || at.type === 'ForInStatement') && at.body === child) {
      const left = at.left.type === 'VariableDeclaration' ? at.left.declarations[0]?.id : at.left;
      if (left?.type === 'Identifier') names.add(left.name);
      return names;
    }
    if ((at.type === 'ArrowFunctionExpression' || at.type === 'FunctionExpression') && at.parent?.type === 'CallExpression') {
      const [first] = at.params;
      if (first?.type === 'Identifier') names.add(first.name);
      return names;
    }
  }
  return names;
}

/** Whether an argument is the loop's element (`sql`), a part of it (`step.sql`), or an object that carries it (`{ query: sql }`). */
function carriesElement(argument: TSESTree.Node, element: ReadonlySet<string>): boolean {
  const value = unwrapExpression(argument);
  if (value.type === 'Identifier') return element.has(value.name);
  if (value.type === 'MemberExpression') return carriesElement(value.object, element);
  if (value.type !== 'ObjectExpression') return false;
  return value.properties.some((p) => p.type === 'Property' && propertyKeyName(p) !== undefined && carriesElement(p.value, element));
}

/** The name a function is called by in this file: a method's (`this.migrate(…)`), a declared function's, a `const` arrow's. */
export function calledName(fn: TSESTree.Node): string | undefined {
  const holder = fn.parent;
  if (fn.type === 'FunctionDeclaration') return fn.id?.name;
  if (holder?.type === 'MethodDefinition' && holder.key.type === 'Identifier') return holder.key.name;
  if (holder?.type === 'VariableDeclarator' && holder.id.type === 'Identifier') return holder.id.name;
  return undefined;
}

/** The function whose body holds `node`. */
function enclosingFunction(node: TSESTree.Node): TSESTree.Node | undefined {
  for (let at = node.parent; at; at = at.parent)
    if (at.type === 'FunctionDeclaration' || at.type === 'FunctionExpression' || at.type === 'ArrowFunctionExpression') return at;
  return undefined;
}

/** The calls of this file that run a function whose loop sends each statement of a migrations list to the database. */
function statementListRuns(sourceCode: SourceCode): Call[] {
  const runners = new Set<string>();
  for (const send of memberCallsNamed(sourceCode, SENDERS)) {
    const collection = loopedCollection(send);
    if (!collection || !namesMigrations(collection, sourceCode)) continue;
    const element = loopVariables(send);
    if (element.size === 0 || !send.arguments.some((a) => carriesElement(a, element))) continue;
    const fn = enclosingFunction(send);
    const name = fn && calledName(fn);
    if (name !== undefined) runners.add(name);
  }
  if (runners.size === 0) return [];
  const names = [...runners];
  const pattern = new RegExp(names.map((n) => n.replace(/\$/g, '\\$')).join('|'), 'g');
  return callsNamed(sourceCode, pattern, (name) => runners.has(name)).filter((call) => {
    const callee = unwrapExpression(call.callee);
    // `this.migrate(…)` or `migrate(…)`: the file's own function, not a method of something else called the same.
    return (
      callee.type === 'Identifier' || (callee.type === 'MemberExpression' && unwrapExpression(callee.object).type === 'ThisExpression')
    );
  });
}

/** The calls that run each module a loop over a migrations folder loads (`const migration = (await import(`./migrations/${f}`)).default; await migration(tx)`). */
function importedModuleRuns(sourceCode: SourceCode): Call[] {
  const runs: Call[] = [];
  const text = sourceCode.text;
  for (let at = text.indexOf('import('); at >= 0; at = text.indexOf('import(', at + 7)) {
    const load = nodeAt(sourceCode, at);
    if (load?.type !== 'ImportExpression' || !NAMES_MIGRATIONS.test(sourceCode.getText(load.source))) continue;
    const collection = loopedCollection(load);
    if (!collection || !namesMigrations(collection, sourceCode)) continue;
    let value: TSESTree.Node = load;
    while (value.parent?.type === 'AwaitExpression' || (value.parent?.type === 'MemberExpression' && value.parent.object === value))
      value = value.parent;
    const parent = value.parent;
    if (parent?.type !== 'VariableDeclarator') continue;
    for (const variable of sourceCode.getDeclaredVariables(parent))
      for (const ref of variable.references) {
        const call = ref.identifier.parent;
        if (call?.type === 'CallExpression' && call.callee === ref.identifier) runs.push(call);
      }
  }
  return runs;
}

/**
 * Calls of a hand-written migrator, with how each is shown: the runs above, and a loop sending each
 * migration file's text (`sqlFileRuns`, asked when the text reads a file). None in a file that
 * imports an embedded database's driver (a SQLite file per host).
 */
export function handWrittenRuns(sourceCode: SourceCode, modules: ReadonlySet<string>, text: string): Map<Call, string> {
  const runs = new Map<Call, string>();
  if (EMBEDDED_CLIENT_MODULES.some((module) => modules.has(module))) return runs;
  for (const call of text.includes('readFile') ? sqlFileRuns(sourceCode, modules) : [])
    runs.set(call, `${sourceCode.getText(call.callee)}(each migration file)`);
  // A list of them (`migrations`, `buildMigrations(db)`) is named in the plural.
  for (const call of text.includes('igrations') ? statementListRuns(sourceCode) : []) {
    const callee = unwrapExpression(call.callee);
    runs.set(call, `${callee.type === 'MemberExpression' ? 'this.' : ''}${calleeName(call) ?? ''}() (each migration statement)`);
  }
  for (const call of text.includes('import(') ? importedModuleRuns(sourceCode) : [])
    runs.set(call, `${sourceCode.getText(call.callee)}() (each migration module)`);
  return runs;
}
