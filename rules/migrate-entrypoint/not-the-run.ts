// Files named like a migrate entrypoint that are not the run every pod starts:
// - a module that only re-exports another one: a generated CommonJS interop shim
//   (`module.exports = require('../dist/migrate.js')` and a loop of `Object.defineProperty`), an
//   ESM barrel (`export * from './migrate.js'`). It runs nothing; the module it names is checked
//   where it is written.
// - an operator's command: a class extending the `Command` of a command-line framework (an oclif
//   or clipanion `migrate` command of an admin CLI). Someone types it, once, with the server
//   stopped; it is not a step of every pod's start.
// - a generator: a script that reads files and writes files (a types file or docs built from the
//   migration files, run by a `migrations:types` script) and can reach no database: it imports
//   only Node's file and process modules and JSON files (a migrator's journal), loads no module by
//   a computed name, and fetches nothing.
import type { TSESTree } from '@typescript-eslint/utils';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { ARGUMENT_PARSER_MODULES, CLI_MODULES, FILE_ONLY_NODE_MODULES } from '../../src/knowledge/file-conventions.js';
import { calleeName } from '../../analysis/ast/callee-name.js';
import { assignsExports } from '../../analysis/ast/only-declares.js';
import { requiredSpecifier as specifierRequired } from '../../analysis/imports/module-bindings.js';

type Node = TSESTree.Node;

/** `require('x')` with a literal specifier (through TypeScript's wrappers): the specifier. */
const requiredSpecifier = (node: Node): string | undefined => specifierRequired(unwrapExpression(node));

/**
 * A call that only wires exports: `require('…')`, `Object.defineProperty(…)` and the other
 * `Object` functions, `hasOwnProperty.call(…)`, and a compiler's interop helpers (`__exportStar`,
 * `__createBinding`, `_interopRequireDefault`).
 */
function wiresExports(call: TSESTree.CallExpression): boolean {
  if (requiredSpecifier(call) !== undefined) return true;
  const callee = unwrapExpression(call.callee);
  if (callee.type === 'Identifier') return callee.name.startsWith('_');
  if (callee.type !== 'MemberExpression') return false;
  const object = unwrapExpression(callee.object);
  if (object.type === 'Identifier' && object.name === 'Object') return true;
  return memberPropertyName(callee) === 'call' && memberPropertyName(object) === 'hasOwnProperty';
}

/** `__exportStar(require('./lib'), exports)`: a helper given the module's exports to fill. */
const handsOnExports = (call: TSESTree.CallExpression): boolean =>
  call.arguments.some((argument) => argument.type === 'Identifier' && argument.name === 'exports');

/**
 * A statement that starts another module for its effects (`require('./run')`, `import './run.js'`):
 * a launcher, which is the run, not a shim.
 */
const launches = (statement: TSESTree.ProgramStatement): boolean =>
  (statement.type === 'ImportDeclaration' && statement.specifiers.length === 0) ||
  (statement.type === 'ExpressionStatement' && requiredSpecifier(statement.expression) !== undefined);

/**
 * Whether the file only re-exports another module (see the file's head): it exports what it takes
 * from another module (`export … from`, or `module.exports` or `exports` beside a `require`), starts none for
 * its effects, and every call it makes wires exports.
 */
export function onlyReExports(program: TSESTree.Program, calls: readonly TSESTree.CallExpression[]): boolean {
  const reExports =
    program.body.some((s) => (s.type === 'ExportAllDeclaration' || s.type === 'ExportNamedDeclaration') && s.source !== null) ||
    (calls.some((call) => requiredSpecifier(call) !== undefined) && (program.body.some(assignsExports) || calls.some(handsOnExports)));
  return reExports && !program.body.some(launches) && calls.every(wiresExports);
}

/** The names the file binds to a command-line framework: `import { Command } from '@oclif/core'`, `const { Command } = require('clipanion')`. */
function commandLineBindings(program: TSESTree.Program): Set<string> {
  const names = new Set<string>();
  for (const statement of program.body) {
    if (statement.type === 'ImportDeclaration' && CLI_MODULES.has(statement.source.value))
      for (const specifier of statement.specifiers) names.add(specifier.local.name);
    if (statement.type !== 'VariableDeclaration') continue;
    for (const declarator of statement.declarations) {
      const specifier = declarator.init ? requiredSpecifier(declarator.init) : undefined;
      if (specifier === undefined || !CLI_MODULES.has(specifier)) continue;
      if (declarator.id.type === 'Identifier') names.add(declarator.id.name);
      if (declarator.id.type === 'ObjectPattern')
        for (const property of declarator.id.properties)
          if (property.type === 'Property' && property.value.type === 'Identifier') names.add(property.value.name);
    }
  }
  return names;
}

/** The classes a file declares at its top level, exported or not, and those assigned to `module.exports`. */
function topLevelClasses(program: TSESTree.Program): Array<TSESTree.ClassDeclaration | TSESTree.ClassExpression> {
  const classes: Array<TSESTree.ClassDeclaration | TSESTree.ClassExpression> = [];
  for (const statement of program.body) {
    const declared =
      statement.type === 'ExportNamedDeclaration' || statement.type === 'ExportDefaultDeclaration' ? statement.declaration : statement;
    if (declared?.type === 'ClassDeclaration' || declared?.type === 'ClassExpression') classes.push(declared);
    if (declared?.type === 'ExpressionStatement' && declared.expression.type === 'AssignmentExpression') {
      const value = unwrapExpression(declared.expression.right);
      if (value.type === 'ClassExpression') classes.push(value);
    }
  }
  return classes;
}

/** Whether the file declares an operator's command (see the file's head): a class extending a command-line framework's class. */
export function declaresCommandClass(program: TSESTree.Program): boolean {
  const classes = topLevelClasses(program);
  if (classes.length === 0) return false;
  const bindings = commandLineBindings(program);
  return classes.some((cls) => {
    const base = cls.superClass && unwrapExpression(cls.superClass);
    const root = base?.type === 'MemberExpression' ? unwrapExpression(base.object) : base;
    return root?.type === 'Identifier' && bindings.has(root.name);
  });
}

/** `parseArgs` of `node:util`: an argument parser built into Node. */
const isUtilParseArgs = (statement: TSESTree.ImportDeclaration): boolean =>
  (statement.source.value === 'node:util' || statement.source.value === 'util') &&
  statement.specifiers.some((s) => s.type === 'ImportSpecifier' && s.imported.type === 'Identifier' && s.imported.name === 'parseArgs');

/**
 * Whether the file reads its own command line through a command-line framework or an argument
 * parser (`CLI_MODULES`, `ARGUMENT_PARSER_MODULES`, `parseArgs` of `node:util`): an operator's
 * script, run by hand with the flags it asks for (a copy of one store into another, a repair),
 * not the step every pod runs before the server.
 */
export function parsesOwnCommandLine(program: TSESTree.Program, calls: readonly TSESTree.CallExpression[]): boolean {
  const parser = (specifier: string): boolean => CLI_MODULES.has(specifier) || ARGUMENT_PARSER_MODULES.has(specifier);
  for (const statement of program.body)
    if (statement.type === 'ImportDeclaration' && (parser(statement.source.value) || isUtilParseArgs(statement))) return true;
  return calls.some((call) => {
    const specifier = requiredSpecifier(call);
    return specifier !== undefined && parser(specifier);
  });
}

/** Calls that write a file (`fs.writeFileSync(…)`, `await writeFile(…)`, `createWriteStream(…)`). */
const FILE_WRITES: ReadonlySet<string> = new Set([
  'writeFile',
  'writeFileSync',
  'appendFile',
  'appendFileSync',
  'createWriteStream',
  'copyFile',
  'copyFileSync',
  'cp',
  'cpSync',
]);

/** The literal specifier a top-level statement imports, re-exports or binds (`import x = require('…')`); null for a computed one. */
function statementSpecifier(statement: TSESTree.ProgramStatement): string | null | undefined {
  if (statement.type === 'ImportDeclaration') return statement.importKind === 'type' ? undefined : statement.source.value;
  if ((statement.type === 'ExportAllDeclaration' || statement.type === 'ExportNamedDeclaration') && statement.source)
    return statement.exportKind === 'type' ? undefined : statement.source.value;
  if (statement.type === 'TSImportEqualsDeclaration' && statement.moduleReference.type === 'TSExternalModuleReference') {
    const source = statement.moduleReference.expression;
    return source.type === 'Literal' && typeof source.value === 'string' ? source.value : null;
  }
  return undefined;
}

/** A JSON file (`../drizzle/meta/_journal.json`): data read in, no code that could reach a database. */
const isJsonFile = (specifier: string): boolean => specifier.endsWith('.json');

/** Whether a specifier names one of Node's file-only modules or a JSON file. */
const reachesOnlyFiles = (specifier: string): boolean => FILE_ONLY_NODE_MODULES.has(specifier) || isJsonFile(specifier);

/** Whether a `require(…)` or `import(…)` loads a module that only reaches files, or a JSON file; false for a computed specifier. */
function loadsFileOnlyModule(source: Node | undefined): boolean {
  return source?.type === 'Literal' && typeof source.value === 'string' && reachesOnlyFiles(source.value);
}

/**
 * Whether the file is a generator that reaches no database (see the file's head): every module it
 * imports, requires or imports dynamically is one of Node's file and process modules
 * (`FILE_ONLY_NODE_MODULES`), it calls no `fetch`, and it writes a file. No database client, no
 * migrator and no project module (which might hold either) is in reach, so nothing it runs takes
 * or needs a lock.
 */
export function onlyTransformsFiles(
  program: TSESTree.Program,
  calls: readonly TSESTree.CallExpression[],
  dynamicImports: readonly TSESTree.ImportExpression[],
): boolean {
  for (const statement of program.body) {
    const specifier = statementSpecifier(statement);
    if (specifier === null || (specifier !== undefined && !reachesOnlyFiles(specifier))) return false;
  }
  if (!dynamicImports.every((load) => loadsFileOnlyModule(load.source))) return false;
  let writes = false;
  for (const call of calls) {
    const callee = unwrapExpression(call.callee);
    if (callee.type === 'Identifier' && callee.name === 'require' && !loadsFileOnlyModule(call.arguments[0])) return false;
    const name = calleeName(call);
    if (name === 'fetch') return false;
    if (name !== undefined && FILE_WRITES.has(name)) writes = true;
  }
  return writes;
}
