// A call on a database that is a file on this host: its handle made in this file by a SQLite
// driver (`const db = new Database('./sessions.db')` of better-sqlite3, `new sqlite3.Database(f)`,
// `drizzle(new Database(f))`, a field of the class `private readonly db = new Database(f)`). Each replica opens its own file, so deleting expired rows of it
// (a session store's garbage collection) touches nothing another replica holds.
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { EMBEDDED_CLIENT_MODULES } from '../../src/knowledge/embedded-databases.js';
import { unwrapExpression } from '../ast/unwrapped-expression.js';
import { assignedFieldValues } from '../ast/class-fields.js';
import { importSource, valueOf } from './in-memory-values.js';

/** How many variables back a handle is traced to the driver call that made it. */
const MAX_HOPS = 3;

/** `this.db`: a field of the instance. */
function isThisField(node: TSESTree.Node): boolean {
  return node.type === 'MemberExpression' && unwrapExpression(node.object).type === 'ThisExpression';
}

/** The name a call chain starts from: `db` of `db.prepare(sql).run()`, of `db.select().from(t)`; `this.db` of `this.db.prepare(sql)`. */
function chainRoot(node: TSESTree.Node): TSESTree.Identifier | TSESTree.MemberExpression | undefined {
  let current = unwrapExpression(node);
  for (;;) {
    if (current.type === 'MemberExpression') {
      if (isThisField(current)) return current;
      current = unwrapExpression(current.object);
    } else if (current.type === 'CallExpression') current = unwrapExpression(current.callee);
    else return current.type === 'Identifier' ? current : undefined;
  }
}

/** A value made by a SQLite driver: `new Database(file)`, `new sqlite3.Database(file)`, `drizzle(new Database(file))`. */
function isEmbeddedHandle(sourceCode: SourceCode, node: TSESTree.Node | undefined, hops = 0): boolean {
  if (!node || hops > MAX_HOPS) return false;
  const value = unwrapExpression(node, { await: true });
  if (value.type === 'Identifier') return isEmbeddedHandle(sourceCode, valueOf(sourceCode, value), hops + 1);
  // `private readonly db = new Database(file)`: every value the class gives the field is such a handle.
  if (value.type === 'MemberExpression' && isThisField(value)) {
    const values = assignedFieldValues(value, sourceCode.visitorKeys);
    return values.length > 0 && values.every((assigned) => isEmbeddedHandle(sourceCode, assigned, hops + 1));
  }
  if (value.type !== 'NewExpression' && value.type !== 'CallExpression') return false;
  const maker = chainRoot(value.callee);
  const source = maker?.type === 'Identifier' ? importSource(sourceCode, maker) : undefined;
  if (source !== undefined && EMBEDDED_CLIENT_MODULES.includes(source)) return true;
  // `drizzle(new Database(file))`: a wrapper around a handle of a file.
  return value.arguments.some((arg) => arg.type === 'NewExpression' && isEmbeddedHandle(sourceCode, arg, hops + 1));
}

/** Whether `call` runs on a database file of this host (`db.prepare('DELETE …').run()` on a better-sqlite3 handle). */
export function callsEmbeddedDatabase(sourceCode: SourceCode, call: TSESTree.CallExpression): boolean {
  if (call.callee.type !== 'MemberExpression') return false;
  const root = chainRoot(call.callee.object);
  return root !== undefined && isEmbeddedHandle(sourceCode, root);
}
