// A query builder that is never run as a read of its own: kept un-awaited in a name and handed to
// another statement as a subquery — Drizzle `inArray(jobs.id, pending)`, Knex `.whereIn('id',
// pending)`, Kysely `.where('id', 'in', pending)`, or embedded in an `sql` template. The database
// runs the select inside the update or delete, as one statement (`DELETE … WHERE id IN (SELECT
// …)`): nothing is read into the process, so no second statement marks what was read. The same
// holds for a builder kept in a `let` and narrowed step by step (`query = query.where(…)`, a link
// called for its effect on the builder, `query.skipLocked()`) before it is sent as the filter of
// one update or delete (`await query.update({ owner: null })`) or as such a subquery.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import { chosenValue } from '../../analysis/ast/chosen-value.js';
import { WRITE_METHODS } from '../../src/knowledge/sql.js';
import type { PendingRead } from './claim-shapes.js';

type Node = TSESTree.Node;

/** Calls that run the promises or builders handed to them (`Promise.all([q])`, `prisma.$transaction([q])`): not a subquery. */
const RUNS_ITS_ARGUMENTS: ReadonlySet<string> = new Set(['all', 'allSettled', 'race', 'any', '$transaction', 'batch']);

/** Whether a reference sits, as a value, in the arguments of a call that builds a statement, or in a template's holes. */
function embedded(reference: Node): boolean {
  const parent = reference.parent;
  if (parent?.type === 'TemplateLiteral') return parent.parent?.type === 'TaggedTemplateExpression';
  if (parent?.type !== 'CallExpression' || !parent.arguments.includes(reference as TSESTree.CallExpressionArgument)) return false;
  const callee = parent.callee;
  const name = callee.type === 'Identifier' ? callee.name : memberPropertyName(callee);
  return name === undefined || !RUNS_ITS_ARGUMENTS.has(name);
}

/**
 * Whether a use of the builder held in `name` runs no read: a chain on it that writes (`query.update(…)`,
 * `.del()`), a link called for its effect alone (`query.skipLocked();`), the chain or the name put
 * back in the same name (`query = query.where(…)`, `query = custom ?? query`), or a link only
 * looked at (`if (query.skipLocked)`).
 */
function runsNoRead(reference: TSESTree.Identifier, name: string): boolean {
  let top: Node = reference;
  const links: string[] = [];
  for (;;) {
    const member: Node | undefined = top.parent;
    if (member?.type !== 'MemberExpression' || member.object !== top) break;
    const call: Node | undefined = member.parent;
    if (call?.type !== 'CallExpression' || call.callee !== member) return call?.type !== 'CallExpression' && links.length === 0;
    links.push(memberPropertyName(member) ?? '');
    top = call;
  }
  if (links.some((link) => WRITE_METHODS.has(link))) return true;
  if (links.length > 0 && top.parent?.type === 'ExpressionStatement') return true;
  // Put back in the same name, also as one branch of a choice (`query = other ? other : query`).
  const value = chosenValue(top);
  const parent = value.parent;
  return (
    parent?.type === 'AssignmentExpression' && parent.right === value && parent.left.type === 'Identifier' && parent.left.name === name
  );
}

/** The name a builder read is kept in: `const q = …`, `let q = …`, or `q = …` again. */
function holderOf(node: Node): TSESTree.Identifier | undefined {
  const parent = node.parent;
  if (parent?.type === 'VariableDeclarator' && parent.init === node && parent.id.type === 'Identifier') return parent.id;
  if (parent?.type === 'AssignmentExpression' && parent.right === node && parent.operator === '=' && parent.left.type === 'Identifier')
    return parent.left;
  return undefined;
}

/** Whether a builder read is never run as a read: only ever used as a subquery of, or the filter of, another statement. */
export function isSubqueryOnly(read: PendingRead, sourceCode: Readonly<TSESLint.SourceCode>): boolean {
  if (read.kind !== 'builder') return false;
  const holder = holderOf(read.node);
  const variable = holder && scopeVariable(sourceCode, holder);
  if (!holder || !variable) return false;
  const references = variable.references.filter((r) => r.isRead());
  return (
    references.length > 0 && references.every((r) => embedded(r.identifier) || runsNoRead(r.identifier as TSESTree.Identifier, holder.name))
  );
}
