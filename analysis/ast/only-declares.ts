// Whether a module only declares and exports: imports, functions, classes, types, constants that
// call nothing but the module's own set-up, and exports. Loading it starts nothing — a library
// module, whatever its file is called (`migrate.ts` of a migration engine, a job class in
// `run-migrations.ts`).
import { chainRoot } from './chain-root.js';
import type { TSESTree } from '@typescript-eslint/utils';
import { unwrapExpression } from './unwrapped-expression.js';
import { memberPropertyName } from './property-names.js';
import { requiredSpecifier } from '../imports/module-bindings.js';

type Node = TSESTree.Node;

/** `module.exports = …`, `exports.x = …`, `module.exports.x = …`. */
export function assignsExports(statement: TSESTree.ProgramStatement): boolean {
  if (statement.type !== 'ExpressionStatement' || statement.expression.type !== 'AssignmentExpression') return false;
  const target = chainRoot(statement.expression.left);
  return target?.name === 'module' || target?.name === 'exports';
}

/** `Object.defineProperty(exports, '__esModule', { value: true })`, which TypeScript and Babel put at the top of CommonJS output. */
function marksEsModule(expression: TSESTree.Expression): boolean {
  if (expression.type !== 'CallExpression' || memberPropertyName(unwrapExpression(expression.callee)) !== 'defineProperty') return false;
  const [target, key] = expression.arguments;
  return target?.type === 'Identifier' && target.name === 'exports' && key?.type === 'Literal' && key.value === '__esModule';
}

/**
 * A top-level call that only sets up the module itself: an ES module's stand-ins for CommonJS
 * (`createRequire(import.meta.url)`, `path.dirname(fileURLToPath(import.meta.url))`) and
 * `require(…)` of a dependency. It runs nothing of the migration.
 */
function setsUpModule(node: Node): boolean {
  const value = unwrapExpression(node);
  if (value.type === 'MetaProperty') return true;
  if (value.type === 'MemberExpression') return setsUpModule(value.object);
  if (value.type !== 'CallExpression') return false;
  if (requiredSpecifier(value) !== undefined) return true;
  return value.arguments.length > 0 && value.arguments.every(setsUpModule);
}

/** Whether a top-level statement only declares: an import, a function, class or type, or a `const` that calls nothing but module set-up. */
function onlyDeclaresHere(statement: TSESTree.ProgramStatement): boolean {
  const declared =
    statement.type === 'ExportNamedDeclaration'
      ? statement.declaration
      : statement.type === 'ExportDefaultDeclaration'
        ? statement.declaration
        : statement;
  if (declared === null) return true; // `export { a, b }`, `export … from`
  switch (declared.type) {
    case 'ImportDeclaration':
    case 'FunctionDeclaration':
    case 'ClassDeclaration':
    case 'TSInterfaceDeclaration':
    case 'TSTypeAliasDeclaration':
    case 'TSEnumDeclaration':
    case 'TSModuleDeclaration':
    case 'TSDeclareFunction':
    case 'ArrowFunctionExpression':
    case 'FunctionExpression':
    case 'ClassExpression':
    case 'Identifier':
      return true;
    case 'VariableDeclaration':
      return declared.declarations.every((d) => {
        if (!d.init) return true;
        const init = unwrapExpression(d.init);
        if (!['CallExpression', 'NewExpression', 'AwaitExpression'].includes(init.type)) return true;
        return setsUpModule(init);
      });
    case 'ExpressionStatement':
      if ('directive' in declared && declared.directive) return true; // oxlint's AST gives every expression statement `directive: null`
      // `module.exports = { migrate }`, `exports.run = run`, and the compiler's
      // `Object.defineProperty(exports, '__esModule', …)`: exports, not a run.
      if (marksEsModule(declared.expression)) return true;
      return (
        assignsExports(declared) &&
        !['CallExpression', 'NewExpression', 'AwaitExpression'].includes(
          unwrapExpression((declared.expression as TSESTree.AssignmentExpression).right).type,
        )
      );
    default:
      return false;
  }
}

/**
 * Whether the file only declares and exports (a migration engine's library module called
 * `migrate.ts`, a queue job class in `run-migrations.ts`): it starts nothing when loaded, so no
 * handler in it is the run a pod starts. A CommonJS module
 * that assigns `module.exports` a value built here counts too.
 */
export function onlyDeclares(program: TSESTree.Program): boolean {
  return program.body.length > 0 && program.body.every(onlyDeclaresHere);
}

/** Whether a top-level statement may start work: an expression statement (not a directive or an export assignment), or a top-level `await`. */
function mayStartWork(statement: TSESTree.ProgramStatement): boolean {
  const declared =
    statement.type === 'ExportNamedDeclaration' || statement.type === 'ExportDefaultDeclaration' ? statement.declaration : statement;
  if (declared === null) return false;
  if (declared.type === 'ExpressionStatement')
    return !('directive' in declared && declared.directive) && !marksEsModule(declared.expression) && !assignsExports(declared);
  if (declared.type === 'VariableDeclaration') return declared.declarations.some((d) => d.init?.type === 'AwaitExpression');
  return ![
    'ImportDeclaration',
    'FunctionDeclaration',
    'ClassDeclaration',
    'TSInterfaceDeclaration',
    'TSTypeAliasDeclaration',
    'TSEnumDeclaration',
    'TSModuleDeclaration',
    'TSDeclareFunction',
    'TSImportEqualsDeclaration',
    'TSExportAssignment',
    'ArrowFunctionExpression',
    'FunctionExpression',
    'ClassExpression',
    'Identifier',
    'ObjectExpression',
  ].includes(declared.type);
}

/**
 * Whether loading the module starts no work of its own: its constants may be built by calls (a
 * config read, a client constructed), but no statement runs a task and nothing is awaited at the
 * top level. A library module, unlike a script whose top level starts its run (`main()`,
 * `await migrate()`).
 */
export function startsNothing(program: TSESTree.Program): boolean {
  return program.body.length > 0 && !program.body.some(mayStartWork);
}
