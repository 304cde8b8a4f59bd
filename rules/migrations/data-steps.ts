// A data-migration step: a module in a folder named for migrations that exports `up` — a
// migrator (Reaction's, umzug, a project's `code-migrations/` runner) imports it and runs its `up`
// once per data version, recording that it ran. Its reads and writes, loops and pauses run in one
// process, once: no replica races them. The runner of such a folder (the file that reads the
// folder and records what ran) exports no `up` and stays judged.
import type { TSESTree } from '@typescript-eslint/utils';
import { memberPropertyName, propertyKeyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { isMigrationFolderName } from '../../src/knowledge/file-conventions.js';
import { startsNothing } from '../../analysis/ast/only-declares.js';

/** The name every migrator calls a step's forward function by. */
const STEP = 'up';

/** Whether an object literal has an `up` member: `{ up }`, `{ up: run }`, `{ async up() {} }`. */
const hasStep = (node: TSESTree.Node | null | undefined): boolean => {
  const value = node && unwrapExpression(node);
  return value?.type === 'ObjectExpression' && value.properties.some((p) => p.type === 'Property' && propertyKeyName(p) === STEP);
};

/** `exports` or `module.exports`. */
const isExportsObject = (node: TSESTree.Node): boolean => {
  const value = unwrapExpression(node);
  if (value.type === 'Identifier') return value.name === 'exports';
  return (
    value.type === 'MemberExpression' &&
    memberPropertyName(value) === 'exports' &&
    unwrapExpression(value.object).type === 'Identifier' &&
    (unwrapExpression(value.object) as TSESTree.Identifier).name === 'module'
  );
};

/** Whether a top-level statement exports `up` (ES module or CommonJS). */
function exportsStep(statement: TSESTree.ProgramStatement): boolean {
  if (statement.type === 'ExportNamedDeclaration') {
    const declaration = statement.declaration;
    if (declaration?.type === 'FunctionDeclaration') return declaration.id?.name === STEP;
    if (declaration?.type === 'VariableDeclaration')
      return declaration.declarations.some((d) => d.id.type === 'Identifier' && d.id.name === STEP);
    return statement.specifiers.some((s) => s.exported.type === 'Identifier' && s.exported.name === STEP);
  }
  if (statement.type === 'ExportDefaultDeclaration') return hasStep(statement.declaration);
  if (statement.type !== 'ExpressionStatement' || statement.expression.type !== 'AssignmentExpression') return false;
  const { left, right } = statement.expression;
  // `module.exports = { up, down }`, `exports.up = …`, `module.exports.up = …`
  if (isExportsObject(left)) return hasStep(right);
  return left.type === 'MemberExpression' && memberPropertyName(left) === STEP && isExportsObject(left.object);
}

/** Whether a module exports a migration step's `up`. */
export const exportsMigrationStep = (program: TSESTree.Program): boolean => program.body.some(exportsStep);

/**
 * Whether a file is the index module of a folder named for migrations that exports no step and
 * starts nothing as it loads (`migrations/index.js` exporting `init()` and `applyPending()`): the
 * folder's runner, which the app loads and calls, not a migration file a migrator runs once. An
 * index that runs at its top level (`await db.migrate.latest()`) is a script run on its own.
 */
export function isMigrationFolderIndex(path: string, program: TSESTree.Program): boolean {
  const segments = path.replace(/\\/g, '/').split('/');
  const base = segments.pop() ?? '';
  return (
    base.split('.')[0] === 'index' &&
    isMigrationFolderName(segments.at(-1) ?? '') &&
    !exportsMigrationStep(program) &&
    startsNothing(program)
  );
}
