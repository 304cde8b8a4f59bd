// A file's own test for "was I started, not imported?": code under it runs only when someone starts
// the file as a program (`node scripts/sync.js`), never when a server imports it.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { constantInitializer } from '../../analysis/sql/sql-text-model.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';

const isRequireMain = (node: TSESTree.Node): boolean =>
  node.type === 'MemberExpression' &&
  node.object.type === 'Identifier' &&
  node.object.name === 'require' &&
  memberPropertyName(node) === 'main';
type SourceCode = Readonly<TSESLint.SourceCode>;

const isModule = (node: TSESTree.Node): boolean => node.type === 'Identifier' && node.name === 'module';

/** `import.meta` itself, or a member of it (`import.meta.url`, `import.meta.filename`). */
const isImportMeta = (node: TSESTree.Node): boolean => node.type === 'MetaProperty' && node.meta.name === 'import';

/** Whether `node` reads `import.meta.url` / `import.meta.filename` somewhere inside (`fileURLToPath(import.meta.url)`). */
function readsOwnUrl(node: TSESTree.Node, depth = 0): boolean {
  if (depth > 4) return false;
  const value = unwrapExpression(node);
  if (value.type === 'MemberExpression') return isImportMeta(value.object) || readsOwnUrl(value.object, depth + 1);
  if (value.type === 'CallExpression') return value.arguments.some((a) => a.type !== 'SpreadElement' && readsOwnUrl(a, depth + 1));
  if (value.type === 'TemplateLiteral') return value.expressions.some((e) => readsOwnUrl(e, depth + 1));
  return false;
}

/** Whether `node` reads the started file's path, `process.argv[1]`, somewhere inside (`pathToFileURL(process.argv[1]).href`). */
function readsStartedPath(node: TSESTree.Node, depth = 0): boolean {
  if (depth > 4) return false;
  const value = unwrapExpression(node);
  if (value.type === 'MemberExpression') {
    const object = unwrapExpression(value.object);
    if (object.type === 'MemberExpression' && memberPropertyName(object) === 'argv') return true;
    return readsStartedPath(value.object, depth + 1);
  }
  if (value.type === 'CallExpression') return value.arguments.some((a) => a.type !== 'SpreadElement' && readsStartedPath(a, depth + 1));
  if (value.type === 'TemplateLiteral') return value.expressions.some((e) => readsStartedPath(e, depth + 1));
  return false;
}

/**
 * Whether `test` holds only when the file was started as a program: `require.main === module`,
 * `!module.parent`, ESM's `import.meta.url === pathToFileURL(process.argv[1]).href` (any form
 * comparing the file's own URL or path with `process.argv[1]`), `import.meta.main`, a conjunction
 * holding one of these (`typeof require !== 'undefined' && require.main === module`), or a
 * top-level `const` set to one (`const isMain = …; if (isMain) …`, never reassigned).
 */
function isStartedDirectlyTest(test: TSESTree.Node, sourceCode: SourceCode, depth = 0): boolean {
  const value = unwrapExpression(test);
  switch (value.type) {
    case 'LogicalExpression':
      return (
        value.operator === '&&' &&
        (isStartedDirectlyTest(value.left, sourceCode, depth) || isStartedDirectlyTest(value.right, sourceCode, depth))
      );
    case 'UnaryExpression':
      return (
        value.operator === '!' &&
        value.argument.type === 'MemberExpression' &&
        isModule(value.argument.object) &&
        memberPropertyName(value.argument) === 'parent'
      );
    case 'MemberExpression':
      return isImportMeta(value.object) && memberPropertyName(value) === 'main';
    case 'BinaryExpression': {
      if (value.operator !== '===' && value.operator !== '==') return false;
      const { left, right } = value;
      if ((isRequireMain(left) && isModule(right)) || (isModule(left) && isRequireMain(right))) return true;
      return (readsOwnUrl(left) && readsStartedPath(right)) || (readsStartedPath(left) && readsOwnUrl(right));
    }
    case 'Identifier': {
      const init = depth === 0 ? constantInitializer(value, sourceCode) : undefined;
      return init !== undefined && isStartedDirectlyTest(init, sourceCode, depth + 1);
    }
    default:
      return false;
  }
}

/** Whether a top-level statement is `if (<started directly>) { … }`: a script someone starts, which no server imports to run. */
export function runsOnlyWhenStartedDirectly(statement: TSESTree.Node, sourceCode: SourceCode): boolean {
  return statement.type === 'IfStatement' && isStartedDirectlyTest(statement.test, sourceCode);
}
