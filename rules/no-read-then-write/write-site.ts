// Which calls send values back to the database, per library, and which values they send (by
// field). Atomic forms (`{ increment }`, `$inc`, `sql` templates, `.increment()`) send no value
// computed in JavaScript, so they simply never carry a taint.
import type { TSESTree } from '@typescript-eslint/utils';
import {
  MONGO_ATOMIC_OPERATORS,
  NAMED_BY_STRING_ACCESSORS,
  PRISMA_ATOMIC_OPERATIONS,
  PRISMA_LINK_OPERATIONS,
  PRIMARY_KEY_COLUMN,
  type DataLibrary,
} from '../../src/knowledge/orm-reads-writes.js';
import { methodChainOf, outermostCallOf, type ChainLink, type MethodChain } from '../../analysis/ast/method-chain.js';
import { memberPropertyName, propertyKeyName } from '../../analysis/ast/property-names.js';
import { METEOR_UPDATES } from '../../src/knowledge/meteor-collections.js';
import { declaredObject } from '../../analysis/ast/declared-object.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';

import type { WriteSite, WriteValue } from './model.js';
import { startingTable } from './starting-table.js';
import { DATA_ACCESS_OBJECT_NAME } from '../../src/knowledge/database-access.js';
import { isSupabaseFilter, SUPABASE_TABLE_LINK } from '../../src/knowledge/supabase.js';

export const MONGOOSE_UPDATES: ReadonlySet<string> = new Set([
  'updateOne',
  'updateMany',
  'findOneAndUpdate',
  'findByIdAndUpdate',
  'replaceOne',
]);
/** MongoDB update documents sent by Mongoose's updates and Meteor's (`Jobs.updateAsync(id, { $set })`, meteor-collections.ts). */
const DOCUMENT_UPDATES: ReadonlySet<string> = new Set([...MONGOOSE_UPDATES, ...METEOR_UPDATES]);
/** The method names `writeSiteOf` switches on (besides the Mongoose updates). */
export const WRITE_SITE_METHODS: ReadonlySet<string> = new Set([
  'set',
  'update',
  'updateMany',
  'upsert',
  'save',
  'saveAll',
  'saveMany',
  'flush',
  'persistAndFlush',
]);

export function objectProperty(object: TSESTree.Node | undefined, name: string): TSESTree.Node | undefined {
  if (object?.type !== 'ObjectExpression') return undefined;
  for (const property of object.properties) {
    if (property.type === 'Property' && (propertyKeyName(property) ?? null) === name) return property.value;
  }
  return undefined;
}

/**
 * The object literals a conditional spread adds (`...(cond && { a, b })`, `...(cond ? { a } : {})`):
 * their fields are known, whichever way the condition goes. `undefined` for any other spread.
 */
function conditionalObjects(argument: TSESTree.Node, depth = 0): TSESTree.ObjectExpression[] | undefined {
  const value = unwrapExpression(argument);
  if (value.type === 'ObjectExpression') return [value];
  if (depth > 2) return undefined;
  if (value.type === 'LogicalExpression' && value.operator === '&&') return conditionalObjects(value.right, depth + 1);
  if (value.type !== 'ConditionalExpression') return undefined;
  const consequent = conditionalObjects(value.consequent, depth + 1);
  const alternate = conditionalObjects(value.alternate, depth + 1);
  return consequent && alternate ? [...consequent, ...alternate] : undefined;
}

/** `{ a: x, ...rest }` as values by field; anything else is one value of unknown fields. */
export function valuesOf(
  node: TSESTree.Node | undefined,
  nested?: (field: string, value: TSESTree.Node) => WriteValue[] | null,
): WriteValue[] {
  if (!node || node.type === 'SpreadElement') return [];
  const expr = unwrapExpression(node);
  if (expr.type !== 'ObjectExpression') return [{ field: null, value: expr }];
  const values: WriteValue[] = [];
  for (const property of expr.properties) {
    if (property.type === 'SpreadElement') {
      const spread = conditionalObjects(property.argument);
      if (spread) for (const object of spread) values.push(...valuesOf(object, nested));
      else values.push({ field: null, value: property.argument });
      continue;
    }
    const field = propertyKeyName(property) ?? null;
    const custom = field !== null && nested ? nested(field, property.value) : null;
    if (custom) values.push(...custom);
    else values.push({ field, value: property.value });
  }
  return values;
}

/** Prisma: `{ count: { increment: 1 } }` runs in the database; `{ count: { set: x } }` does not. */
function prismaField(field: string, value: TSESTree.Node): WriteValue[] | null {
  const expr = unwrapExpression(value);
  if (expr.type !== 'ObjectExpression') return null;
  const out: WriteValue[] = [];
  for (const property of expr.properties) {
    if (property.type !== 'Property') continue;
    const op = propertyKeyName(property) ?? null;
    if (op === 'set') out.push({ field, value: property.value });
    else if (op !== null && (PRISMA_ATOMIC_OPERATIONS.includes(op) || PRISMA_LINK_OPERATIONS.includes(op))) continue;
    else return null; // a nested relation write, or a JSON value: treat the object as the value
  }
  return out;
}

/** Mongo update documents: `$set` fields are values; `$inc` and friends run in the database. */
export function mongoValues(update: TSESTree.Node | undefined): WriteValue[] {
  if (!update) return [];
  const sent = unwrapExpression(update);
  // `const modifier = { $set: { lines } }` declared before the write: its fields (declared-object.ts).
  const expr = (sent.type === 'Identifier' && declaredObject(sent)) || sent;
  if (expr.type === 'ArrayExpression') return []; // an aggregation pipeline runs in the database
  return valuesOf(expr, (key, value) => {
    if (key === '$set' || key === '$setOnInsert') return valuesOf(value);
    return MONGO_ATOMIC_OPERATORS.includes(key) || key.startsWith('$') ? [] : null;
  });
}

const WHERE_LINKS: ReadonlySet<string | undefined> = new Set(['where', 'andWhere', 'whereIn', 'orWhere']);

/** `.where(…)` arguments anywhere in the chain of the outermost call (before or after the write). */
export function whereArguments(outermost: TSESTree.CallExpression): TSESTree.Node[] {
  return methodChainOf(outermost).links.flatMap((link) => (WHERE_LINKS.has(link.name) ? link.call.arguments : []));
}

/** supabase-js's filters of a `.from(table)` chain (`.eq('id', row.id)`, after the write), or none. */
function supabaseFilterArguments(outermost: TSESTree.CallExpression): TSESTree.Node[] {
  const { links } = methodChainOf(outermost);
  const names = links.map((link) => link.name);
  return links.flatMap((link) => (link.name !== undefined && isSupabaseFilter(link.name, names) ? link.call.arguments : []));
}

export function nameOf(node: TSESTree.Node | undefined): string | null {
  if (!node || node.type === 'SpreadElement') return null;
  const expr = unwrapExpression(node);
  if (expr.type === 'Identifier') return expr.name;
  if (expr.type === 'MemberExpression') return memberPropertyName(expr) ?? null;
  if (expr.type === 'Literal' && typeof expr.value === 'string') return expr.value;
  return null;
}

/** The table a builder chain names: `knex('t')`, `this.knex('t')`, `.table('t')`, `.from('t')`, `.into('t')`. */
export function builderTable(root: TSESTree.Node, links: readonly ChainLink[]): string | null {
  const started = startingTable(root, links);
  if (started !== null) return started;
  const link = links.find((l) => l.name === 'table' || l.name === 'from' || l.name === 'into');
  return nameOf(link?.call.arguments[0]);
}

export function write(
  candidates: DataLibrary[],
  call: TSESTree.CallExpression,
  reportNode: TSESTree.Node,
  values: WriteValue[],
  model: string | null,
  entities: TSESTree.Node[] = [],
  conditions?: (TSESTree.Node | undefined)[],
  data?: TSESTree.Node,
): WriteSite {
  const node = outermostCallOf(call);
  const filter = conditions ? conditions.filter((c): c is TSESTree.Node => c !== undefined) : whereArguments(node);
  const callee = unwrapExpression(call.callee);
  const method = (callee.type === 'MemberExpression' ? memberPropertyName(callee) : undefined) ?? '';
  return {
    candidates,
    model,
    node,
    reportNode,
    values,
    entities,
    conditions: filter,
    shape: { method, nameNode: callee.type === 'MemberExpression' ? callee.property : callee, data, filter: filter[0] },
  };
}

function entitiesOf(argument: TSESTree.Node | undefined): TSESTree.Node[] {
  if (!argument || argument.type === 'SpreadElement') return [];
  const expr = unwrapExpression(argument);
  if (expr.type === 'ArrayExpression') return expr.elements.flatMap((e) => (e && e.type !== 'SpreadElement' ? [e] : []));
  return [expr];
}

/** `.set(…)` of a builder update: Kysely `updateTable(t).set(…)`, TypeORM `createQueryBuilder().update(E).set(…)`, Drizzle `update(t).set(…)`. */
function builderSetSite(
  call: TSESTree.CallExpression,
  args: TSESTree.CallExpressionArgument[],
  find: (name: string) => ChainLink | undefined,
): WriteSite | null {
  const setValues = (): WriteValue[] => {
    const first = args[0];
    if (args.length >= 2 && first?.type === 'Literal' && typeof first.value === 'string') {
      return args[1] && args[1].type !== 'SpreadElement' ? [{ field: first.value, value: args[1] }] : [];
    }
    if (first && (first.type === 'ArrowFunctionExpression' || first.type === 'FunctionExpression')) {
      // Kysely `set((eb) => ({ … }))`: the returned object's values.
      return first.body.type === 'ObjectExpression' ? valuesOf(first.body) : [];
    }
    return valuesOf(first);
  };
  const updateTable = find('updateTable');
  if (updateTable) return write(['kysely'], call, updateTable.nameNode, setValues(), nameOf(updateTable.call.arguments[0]));
  const update = find('update');
  if (!update) return null;
  if (find('createQueryBuilder')) return write(['typeorm'], call, update.nameNode, setValues(), nameOf(update.call.arguments[0]));
  return write(['drizzle'], call, update.nameNode, setValues(), nameOf(update.call.arguments[0]));
}

/** Prisma `model.update({ where, data })`, `updateMany(…)`, `upsert({ where, update })`: the values under `key`. */
function prismaWrite(call: TSESTree.CallExpression, callee: TSESTree.MemberExpression, key: 'data' | 'update'): WriteSite | null {
  const receiver = unwrapExpression(callee.object);
  const options = call.arguments[0];
  const data = objectProperty(options, key);
  if (!data || receiver.type !== 'MemberExpression') return null;
  return write(
    ['prisma'],
    call,
    callee.property,
    valuesOf(data, prismaField),
    nameOf(receiver),
    [],
    [objectProperty(options, 'where')],
    data,
  );
}

/**
 * A project repository's `update({ id, points: user.points + n })`: one object holding the row's
 * key (`PRIMARY_KEY_COLUMN`) and the values. The key is the filter; the rest are the values written.
 */
function keyedValues(first: TSESTree.Node | undefined, count: number): { key: TSESTree.Property; values: WriteValue[] } | undefined {
  if (count !== 1 || !first || first.type === 'SpreadElement') return undefined;
  const object = unwrapExpression(first);
  if (object.type !== 'ObjectExpression') return undefined;
  const isKey = (p: TSESTree.Node): p is TSESTree.Property => p.type === 'Property' && PRIMARY_KEY_COLUMN.test(propertyKeyName(p) ?? '');
  const key = object.properties.find(isKey);
  if (!key || object.properties.length < 2) return undefined;
  return { key, values: valuesOf(object).filter((value) => value.field === null || !PRIMARY_KEY_COLUMN.test(value.field)) };
}

/** `.update(…)`: Prisma `update({ where, data })`, a knex builder update, an instance update, Sequelize `update(values, { where })`, TypeORM `update(criteria, values)`. */
function updateSite(
  call: TSESTree.CallExpression,
  callee: TSESTree.MemberExpression,
  { links, root }: MethodChain,
  isLoadedEntity: (node: TSESTree.Node) => boolean,
): WriteSite | null {
  const below = links.slice(0, -1);
  const args = call.arguments;
  const receiver = unwrapExpression(callee.object);
  const parent = call.parent;
  if (parent?.type === 'MemberExpression' && parent.object === call && memberPropertyName(parent) === 'set') return null;
  const first = args[0];
  if (links.length === 1) {
    const prisma = prismaWrite(call, callee, 'data');
    if (prisma) return prisma;
  }
  // supabase-js `supabase.from(table).update(values).eq('id', row.id)` (supabase.ts).
  const supabase = below.some((link) => link.name === SUPABASE_TABLE_LINK) ? supabaseFilterArguments(outermostCallOf(call)) : [];
  if (supabase.length > 0)
    return write(['supabase'], call, callee.property, valuesOf(first), builderTable(root, below), [], supabase, first);
  // knex(table).where(…).update(…): a builder chain with a filter (crypto's `.update(data)` has none).
  if ((below.length > 0 || root.type === 'CallExpression') && whereArguments(outermostCallOf(call)).length > 0) {
    if (first?.type === 'Literal' && typeof first.value === 'string') {
      return write(
        ['knex'],
        call,
        callee.property,
        args[1] && args[1].type !== 'SpreadElement' ? [{ field: first.value, value: args[1] }] : [],
        builderTable(root, below),
        [],
        undefined,
        first,
      );
    }
    return write(['knex'], call, callee.property, valuesOf(first), builderTable(root, below), [], undefined, first);
  }
  // `doc.update(values)`, Sequelize `doc.update(values, { transaction })`
  if ((args.length === 1 || args.length === 2) && isLoadedEntity(receiver))
    return write(['sequelize', 'mongoose', 'typeorm'], call, callee.property, valuesOf(first), null, [], [], first);
  // `this.playerRepository.update(player)`: a project repository handed a loaded row whole writes its changed fields.
  if (args.length === 1 && first?.type === 'Identifier' && isLoadedEntity(first) && DATA_ACCESS_OBJECT_NAME.test(nameOf(receiver) ?? ''))
    return write(['typeorm', 'sequelize', 'mongoose'], call, callee.property, [], null, [first], []);
  if (args.length === 2 && objectProperty(args[1], 'where')) {
    return write(['sequelize'], call, callee.property, valuesOf(first), nameOf(receiver), [], [objectProperty(args[1], 'where')], first);
  }
  const keyed = keyedValues(first, args.length);
  if (keyed) return write(['typeorm'], call, callee.property, keyed.values, nameOf(receiver), [], [keyed.key], first);
  if (args.length === 2 || args.length === 3) {
    return write(
      ['typeorm'],
      call,
      callee.property,
      valuesOf(args[args.length - 1]),
      nameOf(args.length === 3 ? args[0] : receiver),
      [],
      [args[args.length - 2]],
      args[args.length - 1],
    );
  }
  return null;
}

/**
 * The write `call` is, or `null`. `isLoadedEntity(node)` says whether a node is an entity or
 * document loaded by a read (so `entity.save()` and `entity.update({...})` are instance writes).
 */
export function writeSiteOf(call: TSESTree.CallExpression, isLoadedEntity: (node: TSESTree.Node) => boolean): WriteSite | null {
  const callee = unwrapExpression(call.callee);
  if (callee.type !== 'MemberExpression') return null;
  const method = memberPropertyName(callee);
  // Most calls are not writes: decide by name before building the method chain.
  if (method === undefined || !(WRITE_SITE_METHODS.has(method) || DOCUMENT_UPDATES.has(method))) return null;
  const { links, root } = methodChainOf(call);
  const below = links.slice(0, -1);
  const find = (name: string): ChainLink | undefined => below.find((link) => link.name === name);
  const args = call.arguments;
  const receiver = unwrapExpression(callee.object);

  switch (method) {
    case 'set':
      return builderSetSite(call, args, find);
    case 'update':
      return updateSite(call, callee, { links, root }, isLoadedEntity);
    case 'updateMany': {
      const prisma = prismaWrite(call, callee, 'data');
      if (prisma) return prisma;
      return args.length >= 2
        ? write(['mongoose'], call, callee.property, mongoValues(args[1]), nameOf(receiver), [], [args[0]], args[1])
        : null;
    }
    case 'upsert':
      return links.length === 1 ? prismaWrite(call, callee, 'update') : null;
    case 'saveAll': // a repository's list save (`saveAll([from, to])`), as TypeORM's `save([a, b])`
    case 'saveMany':
    case 'save': {
      if (isLoadedEntity(receiver)) return write(['sequelize', 'mongoose', 'typeorm'], call, callee.property, [], null, [receiver], []);
      if (args.length === 0) return null;
      // repository.save(entity) / manager.save(Entity, entity) / save([a, b]) / save({ ...a, n })
      const saved = entitiesOf(args[args.length - 1]);
      const values = saved.flatMap((node) => (node.type === 'ObjectExpression' ? valuesOf(node) : []));
      return write(
        ['typeorm'],
        call,
        callee.property,
        values,
        null,
        saved.filter((node) => node.type !== 'ObjectExpression'),
        [],
      );
    }
    // MikroORM: `em.persistAndFlush(entity)`, and `em.flush()` writing every entity changed before it.
    case 'persistAndFlush':
      return args.length > 0 ? write(['mikroorm'], call, callee.property, [], null, entitiesOf(args[0]), []) : null;
    case 'flush':
      return args.length === 0 ? { ...write(['mikroorm'], call, callee.property, [], null, [], []), flushesAll: true } : null;
    default:
      // `Model.updateOne(…)`, and on a collection handed out by name (`db.collection('accounts').updateOne(…)`).
      if (
        DOCUMENT_UPDATES.has(method) &&
        (links.length === 1 || (links.length === 2 && NAMED_BY_STRING_ACCESSORS.includes(links[0]?.name ?? '')))
      ) {
        const onDocument = args.length === 1 && isLoadedEntity(receiver);
        const update = onDocument ? args[0] : args[1];
        const filter = onDocument || method === 'findByIdAndUpdate' ? [] : [args[0]];
        return write(['mongoose'], call, callee.property, mongoValues(update), onDocument ? null : nameOf(receiver), [], filter, update);
      }
      return null;
  }
}
