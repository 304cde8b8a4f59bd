// A query builder that is never run on its own: kept un-awaited in a name and handed to another
// statement as a subquery — Drizzle `inArray(jobs.id, pending)`, Knex `.whereIn('id', pending)`,
// Kysely `.where('id', 'in', pending)`, or embedded in an `sql` template. The database runs the
// select inside the update or delete, as one statement (`DELETE … WHERE id IN (SELECT …)`):
// nothing is read into the process, so no second statement marks what was read.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
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

/** Whether a builder read is only ever used as a subquery of another statement. */
export function isSubqueryOnly(read: PendingRead, sourceCode: Readonly<TSESLint.SourceCode>): boolean {
  if (read.kind !== 'builder') return false;
  const declarator = read.node.parent;
  if (declarator?.type !== 'VariableDeclarator' || declarator.init !== read.node || declarator.id.type !== 'Identifier') return false;
  const references = sourceCode.getDeclaredVariables(declarator).flatMap((variable) => variable.references.filter((r) => r.isRead()));
  return references.length > 0 && references.every((r) => embedded(r.identifier));
}
