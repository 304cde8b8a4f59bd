// Which calls read rows into JavaScript, per library, recognised by shape (the receiver of
// `prisma.user.findUnique` or `repo.findOneBy` is rarely an import we could track).
import { parseObjectReadOf } from './parse-objects.js';
import type { TSESTree } from '@typescript-eslint/utils';
import {
  LIBRARY_READS_WRITES,
  MODEL_SCOPES,
  PROMISE_PASS_THROUGH,
  QUERY_RUNNERS,
  REPOSITORY_ACCESSORS,
  NAMED_BY_STRING_ACCESSORS,
  ROW_LOCK_STRENGTHS,
  SINGLE_LIBRARY_LIST_READS,
  SINGLE_LIBRARY_READS,
  type DataLibrary,
} from '../../src/knowledge/orm-reads-writes.js';
import { SQL_METHODS } from '../../src/knowledge/sql.js';
import { methodChainOf, type ChainLink } from '../../analysis/ast/method-chain.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { heldQueryReadOf } from './query-handles.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';

import type { ReadSite } from './model.js';
import { startingTable } from './starting-table.js';

/** Chain methods that make a chain a write, never a read. */
const WRITE_LINKS: ReadonlySet<string | undefined> = new Set([
  'update',
  'updateTable',
  'insert',
  'insertInto',
  'delete',
  'deleteFrom',
  'del',
  'set',
  'increment',
  'decrement',
  'upsert',
  'merge',
  'onConflict',
]);

const RUNNERS: ReadonlySet<string | undefined> = new Set(QUERY_RUNNERS);

const PROMISE_CALLS: ReadonlySet<string | undefined> = new Set(PROMISE_PASS_THROUGH);
const ACCESSORS: ReadonlySet<string | undefined> = new Set(REPOSITORY_ACCESSORS);
const SCOPES: ReadonlySet<string | undefined> = new Set(MODEL_SCOPES);
const PRISMA_READS = new Set(LIBRARY_READS_WRITES.prisma.reads);
const PRISMA_LIST_READS = new Set(LIBRARY_READS_WRITES.prisma.listReads);
const SINGLE_LIBRARY_READ_NAMES = Object.keys(SINGLE_LIBRARY_READS);
const TYPEORM_BUILDER_READS = new Set(['getOne', 'getOneOrFail', 'getRawOne', 'getMany', 'getRawMany']);
/** The query builder's runs that return a list of rows: a row of it counts only when written from its own field. */
const TYPEORM_BUILDER_LIST_READS = new Set(['getMany', 'getRawMany']);

/** Every method or link name `readSiteOf` keys on (for the text pre-check in read-write-mentions.ts). */
export const BUILDER_READ_WORDS: readonly string[] = [
  ...TYPEORM_BUILDER_READS,
  ...SINGLE_LIBRARY_READ_NAMES,
  ...PRISMA_READS,
  ...PRISMA_LIST_READS,
  ...Object.keys(SINGLE_LIBRARY_LIST_READS),
  'selectFrom',
  'select',
  'selectDistinct',
  'first',
  'pluck',
  'where',
  'findFirst',
  'findOne',
];

/**
 * Method names of which every chain `readSiteOf` or `sqlReadSiteOf` calls a read has at least one
 * call (the read itself, or an inner link such as `selectFrom`, `from`, `where`): a call named
 * otherwise needs no chain built to know it is no read's first sign.
 */
export const READ_CHAIN_NAMES: ReadonlySet<string> = new Set([
  ...BUILDER_READ_WORDS,
  'toArray',
  'from',
  'whereIn',
  'findMany',
  'table',
  // TypeORM's `repo.find({ where })`, admitted by its `where` (an array's `find` takes a function).
  'find',
  ...SQL_METHODS,
]);

function site(candidates: DataLibrary[], node: TSESTree.CallExpression, model: string | null, locked: boolean): ReadSite {
  return { candidates, node, model, locked, mutations: [], boundChecks: [] };
}

function stringArgument(call: TSESTree.CallExpression | undefined, index = 0): string | null {
  const argument = call?.arguments[index];
  return argument?.type === 'Literal' && typeof argument.value === 'string' ? argument.value : null;
}

function nameOf(node: TSESTree.Node | undefined): string | null {
  if (!node) return null;
  const expr = unwrapExpression(node);
  if (expr.type === 'Identifier') return expr.name;
  if (expr.type === 'MemberExpression') return memberPropertyName(expr) ?? null;
  return null;
}

/** The entity a repository accessor is for (`getRepository(ctx, Order)` → `Order`, `model('User')` → `User`). */
function entityArgumentOf({ call, name }: ChainLink): string | null {
  for (let i = call.arguments.length - 1; i >= 0; i--) {
    const argument = call.arguments[i] as TSESTree.CallExpressionArgument;
    if (argument.type === 'Literal' && typeof argument.value === 'string' && NAMED_BY_STRING_ACCESSORS.includes(name ?? ''))
      return argument.value;
    if (argument.type === 'Identifier' && /^[A-Z]/.test(argument.name)) return argument.name;
  }
  return null;
}

/** Whether an options object has `lock: …` (TypeORM `{ mode }`, Sequelize `true` / `LOCK.UPDATE`) or MikroORM's `lockMode` other than `NONE`. */
export function hasLockOption(call: TSESTree.CallExpression): boolean {
  for (const argument of call.arguments) {
    if (argument.type !== 'ObjectExpression') continue;
    for (const property of argument.properties) {
      if (property.type !== 'Property' || property.key.type !== 'Identifier') continue;
      const value = property.value;
      if (property.key.name === 'lockMode') return !(value.type === 'MemberExpression' && memberPropertyName(value) === 'NONE');
      if (property.key.name !== 'lock') continue;
      return !(value.type === 'Literal' && value.value === false);
    }
  }
  return false;
}

function hasOption(call: TSESTree.CallExpression, name: string): boolean {
  return call.arguments.some(
    (argument) =>
      argument.type === 'ObjectExpression' &&
      argument.properties.some((p) => p.type === 'Property' && p.key.type === 'Identifier' && p.key.name === name),
  );
}

/** A `find` given no argument or a filter object first: a query, not an array's `find(predicate)`. */
function isDocumentFilter(call: TSESTree.CallExpression | undefined): boolean {
  const first = call?.arguments[0];
  return call !== undefined && (first === undefined || unwrapExpression(first).type === 'ObjectExpression');
}

/** `.for('update')` (Drizzle) or `.forUpdate()` (Knex, Kysely). */
function lockedChain(links: readonly ChainLink[]): boolean {
  return links.some((link) => {
    if (link.name === 'forUpdate' || link.name === 'forNoKeyUpdate' || link.name === 'forShare') return true;
    if (link.name === 'setLock') return stringArgument(link.call)?.startsWith('pessimistic') ?? false;
    if (link.name === 'for') return ROW_LOCK_STRENGTHS.includes(stringArgument(link.call)?.toLowerCase() ?? '');
    return false;
  });
}

/** The read `call` is (an ORM or query-builder read of rows), or `null`. */
export function readSiteOf(call: TSESTree.CallExpression): ReadSite | null {
  // `await query.first()` of a `new Parse.Query(…)` (parse-objects.ts).
  const parseObject = parseObjectReadOf(call);
  if (parseObject) return parseObject;
  const heldQuery = heldQueryReadOf(call, readSiteOf);
  if (heldQuery) return heldQuery;
  const { links: chained, root } = methodChainOf(call);
  // `repo.findOneBy(q).catch(notFound)` resolves to the row all the same.
  let settled = chained.length;
  while (settled > 1 && PROMISE_CALLS.has((chained[settled - 1] as ChainLink).name)) settled--;
  const links = chained.slice(0, settled);
  if (links.length === 0) return null;
  if (links.some((link) => WRITE_LINKS.has(link.name))) return null;
  let end = links.length;
  while (end > 1 && RUNNERS.has((links[end - 1] as ChainLink).name)) end--;
  const meaningful = links.slice(0, end);
  const names = meaningful.map((link) => link.name);
  const last = names[names.length - 1] as string;
  const link = (name: string): ChainLink | undefined => meaningful.find((l) => l.name === name);
  const locked = lockedChain(links);

  if (names.includes('selectFrom')) return site(['kysely'], call, stringArgument(link('selectFrom')?.call), locked);

  if (names.includes('createQueryBuilder') && TYPEORM_BUILDER_READS.has(last)) {
    const read = site(['typeorm'], call, nameOf(link('createQueryBuilder')?.call.arguments[0]), locked);
    return TYPEORM_BUILDER_LIST_READS.has(last) ? { ...read, many: true } : read;
  }

  const from = link('from');
  if (from && (names.includes('select') || names.includes('selectDistinct'))) {
    const table = stringArgument(from.call);
    return table !== null ? site(['knex'], call, table, locked) : site(['drizzle'], call, nameOf(from.call.arguments[0]), locked);
  }

  // knex('accounts').where({ id }).first() — a builder started from a table name (also through a handle: `this.knex('accounts')`).
  const rootTable = startingTable(root, meaningful.slice(0, -1));
  const knexish = rootTable !== null || names.includes('where') || names.includes('table') || names.includes('from');
  if ((last === 'first' || last === 'pluck') && knexish) {
    return site(['knex'], call, rootTable ?? stringArgument(link('table')?.call) ?? stringArgument(from?.call), locked);
  }
  if (rootTable !== null && (names.includes('where') || names.includes('select') || names.includes('whereIn'))) {
    return site(['knex'], call, rootTable, locked);
  }

  // The MongoDB driver's `coll.find(q).toArray()`: a list of documents.
  if (last === 'toArray' && names[names.length - 2] === 'find') {
    const before = meaningful.slice(0, -2);
    if (!before.every((l) => ACCESSORS.has(l.name) || SCOPES.has(l.name))) return null;
    const accessor = before.find((l) => ACCESSORS.has(l.name));
    return {
      ...site(['mongoose'], call, (accessor ? entityArgumentOf(accessor) : null) ?? nameOf(unwrapExpression(root)), false),
      many: true,
    };
  }
  // `dataSource.getRepository(Order).findOneBy(q)`: the read of a repository handed out for an entity.
  const accessors = meaningful.slice(0, -1);
  if (!accessors.every((link) => ACCESSORS.has(link.name) || SCOPES.has(link.name))) return null;
  const accessor = accessors.find((link) => ACCESSORS.has(link.name));
  const rootExpr = unwrapExpression(root);
  const model = (accessor ? entityArgumentOf(accessor) : null) ?? nameOf(rootExpr);
  // db.query.accounts.findFirst(...) — Drizzle's relational queries.
  if (
    (last === 'findFirst' || last === 'findMany') &&
    rootExpr.type === 'MemberExpression' &&
    rootExpr.object.type === 'MemberExpression' &&
    memberPropertyName(rootExpr.object) === 'query'
  ) {
    return last === 'findFirst' ? site(['drizzle'], call, model, locked) : null;
  }
  if (PRISMA_READS.has(last) && rootExpr.type === 'MemberExpression' && accessors.length === 0) return site(['prisma'], call, model, false);
  if (PRISMA_LIST_READS.has(last) && rootExpr.type === 'MemberExpression' && accessors.length === 0)
    return { ...site(['prisma'], call, model, false), many: true };
  // Own keys only: `x.toString()` must not find `Object.prototype.toString` in the table.
  const library = last === undefined || !Object.hasOwn(SINGLE_LIBRARY_READS, last) ? undefined : SINGLE_LIBRARY_READS[last];
  if (library === 'typeorm') return site(['typeorm'], call, nameOf(call.arguments[0]) ?? model, hasLockOption(call));
  if (library) return site([library], call, model, library !== 'mongoose' && hasLockOption(call));
  const listLibrary = last === undefined || !Object.hasOwn(SINGLE_LIBRARY_LIST_READS, last) ? undefined : SINGLE_LIBRARY_LIST_READS[last];
  if (listLibrary) return { ...site([listLibrary], call, model, hasLockOption(call)), many: true };
  if (last === 'findOne') {
    const mongooseRunner = links.length > meaningful.length;
    if (mongooseRunner) return site(['mongoose'], call, model, false);
    if (accessor?.name === 'getRepository' || accessor?.name === 'getCustomRepository')
      return site(['typeorm'], call, model, hasLockOption(call));
    // manager.findOne(Entity, { where }) is TypeORM's EntityManager.
    if (call.arguments.length >= 2 && call.arguments[0]?.type === 'Identifier') {
      return site(['typeorm'], call, call.arguments[0].name, hasLockOption(call));
    }
    if (hasOption(call, 'where')) return site(['typeorm', 'sequelize', 'mongoose'], call, model, hasLockOption(call));
    return site(['mongoose', 'typeorm', 'sequelize'], call, model, false);
  }
  // `repo.find({ where: { status } })`: TypeORM's list read. An array's `find` takes a function, and
  // a MongoDB filter names no `where`.
  if (last === 'find' && hasOption(call, 'where')) return { ...site(['typeorm'], call, model, hasLockOption(call)), many: true };
  // `User.find()`, `Product.find({ _id: { $in: ids } })`: Mongoose's (or a repository's) list of documents.
  if (last === 'find' && accessors.length === 0 && isDocumentFilter(link('find')?.call))
    return { ...site(['mongoose', 'typeorm'], call, model, false), many: true };
  return null;
}
