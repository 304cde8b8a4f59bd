// Whether a read of a database URL opens an embedded database: `new Database(process.env.DATABASE_URL)`
// of better-sqlite3, `drizzle(new Database(url))`, a SQLite-named maker. That URL is a file on the
// host (or libSQL's local file), which no PgBouncer stands in front of: the entrypoint's URL finding
// is about PostgreSQL's. The read is followed up its expression (through `??`, `!`, `as`, an options
// object) to the first call it is an argument of, or through the `const` it is kept in to every
// call that const reaches; the call's client decides (embedded-database.ts).
import type { TSESTree } from '@typescript-eslint/utils';
import type { DetectContext } from '../utils/create-rule.js';
import { receiverIsEmbedded } from '../migrations/embedded-database.js';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';

type SourceCode = DetectContext['sourceCode'];
type Reached = TSESTree.CallExpression | TSESTree.NewExpression | TSESTree.VariableDeclarator;

/** The call a value is an argument of, or the `const` declarator it initialises; undefined when it goes anywhere else. */
function reachedBy(value: TSESTree.Node): Reached | undefined {
  let node: TSESTree.Node = value;
  for (let parent = node.parent; parent; node = parent, parent = parent.parent) {
    switch (parent.type) {
      case 'LogicalExpression':
      case 'ConditionalExpression':
      case 'TSAsExpression':
      case 'TSNonNullExpression':
      case 'ChainExpression':
      case 'AwaitExpression':
      case 'ObjectExpression':
        continue;
      case 'Property':
        if (parent.value === node) continue;
        return undefined;
      case 'CallExpression':
      case 'NewExpression':
        return parent.callee === node ? undefined : parent;
      case 'VariableDeclarator':
        return parent.init === node && parent.id.type === 'Identifier' && parent.parent.kind === 'const' ? parent : undefined;
      default:
        return undefined;
    }
  }
  return undefined;
}

export function opensEmbeddedDatabase(read: TSESTree.Node, sourceCode: SourceCode): boolean {
  const reached = reachedBy(read);
  if (!reached) return false;
  if (reached.type !== 'VariableDeclarator') return receiverIsEmbedded(reached, sourceCode);
  const variable = scopeVariable(sourceCode, reached.id as TSESTree.Identifier);
  const uses = variable?.references.filter((reference) => !reference.init).map((reference) => reachedBy(reference.identifier)) ?? [];
  return (
    uses.length > 0 && uses.every((use) => use !== undefined && use.type !== 'VariableDeclarator' && receiverIsEmbedded(use, sourceCode))
  );
}
