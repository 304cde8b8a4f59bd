// The table a read or an update names, as far as its chain says it plainly: `from(jobs)`,
// `selectFrom('jobs')`, `update(schema.incidents)`, `knex('jobs')`, TypeORM's `find(Job, …)`, or
// the model a Prisma / Mongoose / repository method is called on (`prisma.job`, `Jobs`,
// `this.jobRepo`). Rows updated in another table than the one read (`inArray(incidents.monitorId,
// ids)` after reading monitors) are other rows: marking them claims nothing of what was read.
import type { TSESTree } from '@typescript-eslint/utils';
import { READ_METHODS, UPDATE_METHODS } from '../../src/knowledge/sql.js';
import { SELF_WRITE_METHODS } from '../../src/knowledge/orm-reads-writes.js';
import { receiverName, type ChainLink } from '../../analysis/sql/method-chain.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';

type Node = TSESTree.Node;

/** Links whose first argument names the table (a string, a table object, or an entity class). */
const TABLE_LINKS: ReadonlySet<string> = new Set(['from', 'selectFrom', 'updateTable', 'deleteFrom', 'table', 'into']);
/** Links that name the table first only when called on a connection (`db.update(jobs)`; `repo.update(id, …)` names a row). */
const CONNECTION_TABLE_LINKS: ReadonlySet<string> = new Set(['update', 'delete']);
/** Receivers that are a connection or a client, not a model: the method called on them names no table. */
const CONNECTIONS =
  /^(?:db|database|tx|trx|transaction|knex|prisma|client|pool|conn|connection|manager|entityManager|em|dataSource|sql|this)$/i;

function named(argument: Node | undefined): string | undefined {
  if (!argument || argument.type === 'SpreadElement') return undefined;
  const expr = unwrapExpression(argument);
  if (expr.type === 'Literal' && typeof expr.value === 'string') return expr.value.split(/\s+/)[0]?.split('.').pop();
  if (expr.type === 'Identifier') return expr.name;
  if (expr.type === 'MemberExpression' && !expr.computed && expr.property.type === 'Identifier' && expr.object.type === 'Identifier')
    return expr.property.name;
  return undefined;
}

const SELF_WRITES: ReadonlySet<string> = new Set(SELF_WRITE_METHODS);

/** `job.save()`, `doc.remove()`: a row written by itself, on a lower-case name (a model is `Job`, `jobs.save(row)` hands one). */
function writesItself(chain: readonly ChainLink[]): boolean {
  const [only] = chain;
  if (chain.length !== 1 || !only || !SELF_WRITES.has(only.name ?? '')) return false;
  const receiver = only.object && unwrapExpression(only.object);
  const options = only.call.arguments.every((a) => a.type === 'ObjectExpression');
  return receiver?.type === 'Identifier' && /^[a-z_$]/.test(receiver.name) && options;
}

/** The table a builder / ORM chain names, or `undefined` when it does not say (a row that writes itself names none). */
export function chainTable(chain: readonly ChainLink[]): string | undefined {
  if (writesItself(chain)) return undefined;
  for (const link of chain) {
    const onConnection = CONNECTION_TABLE_LINKS.has(link.name ?? '') && CONNECTIONS.test(receiverName(link.object) ?? '');
    if (link.object !== undefined && !TABLE_LINKS.has(link.name ?? '') && !onConnection) continue;
    const table = named(link.call.arguments[0]);
    if (table !== undefined) return table;
  }
  for (const link of chain) {
    if (link.name === undefined || !(READ_METHODS.has(link.name) || UPDATE_METHODS.has(link.name))) continue;
    const entity = named(link.call.arguments[0]);
    if (entity !== undefined && /^[A-Z]/.test(entity)) return entity;
    const receiver = receiverName(link.object);
    if (receiver !== undefined && !CONNECTIONS.test(receiver)) return receiver;
  }
  return undefined;
}

/** `public.incident_table`, `IncidentRepository` → `incident`: a table's name without its schema or kind. */
function normalised(table: string): string {
  return (table.split('.').pop() ?? table)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')
    .replace(/(?:table|repository|repo|model|collection|entity)$/, '');
}

/** Whether two named tables are plainly different ones: either unknown, or one a plural or longer form of the other, is not. */
export function differentTables(a: string | undefined, b: string | undefined): boolean {
  if (a === undefined || b === undefined) return false;
  const [x, y] = [normalised(a), normalised(b)];
  return x !== '' && y !== '' && !x.startsWith(y) && !y.startsWith(x);
}
