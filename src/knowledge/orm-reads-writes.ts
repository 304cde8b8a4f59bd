// Which calls of each database library read a row, which write it back, and which forms do the
// arithmetic in the database (atomic, so two replicas cannot lose each other's update). Plain
// data and pure functions; read by `no-read-then-write` and the `atomic-counters` codemod.
import { REDIS_ATOMIC_FORM, REDIS_CLIENT_MODULES, REDIS_VALUE_READS, REDIS_VALUE_WRITES } from './redis-clients.js';
import { NATS_KV_READS_WRITES } from './kv-buckets.js';
import { METEOR_DOCUMENT_READS } from './meteor-collections.js';
import { PARSE_READS_WRITES } from './parse-objects.js';
import { READ_METHODS } from './sql.js';
import { STRAPI_READS_WRITES } from './strapi.js';
import { SUPABASE_READS_WRITES } from './supabase.js';

type TableLibrary =
  'sql' | 'prisma' | 'typeorm' | 'sequelize' | 'mongoose' | 'knex' | 'drizzle' | 'kysely' | 'mikroorm' | 'strapi' | 'supabase';
export type DataLibrary = TableLibrary | 'redis' | 'natsKv' | 'parse';

export interface LibraryReadsWrites {
  library: DataLibrary;
  /** Import/require sources that mean the file uses this library. */
  modules: readonly string[];
  /** Methods that read one row (or a few) into JavaScript. */
  reads: readonly string[];
  /** Methods that read a list of rows (`findMany`): a row of it is read when the list is iterated. */
  listReads?: readonly string[];
  /** Methods that write values back. */
  writes: readonly string[];
  /** Methods that change a value in the database (never a lost update). */
  atomicMethods: readonly string[];
  /** Methods (or `for(...)` arguments) that lock the rows a read returns until the transaction ends. */
  lockingMethods: readonly string[];
  /** The atomic form, shown in the rule's message. `{{field}}` is the field or column. */
  atomicForm: string;
}

/** The npm scope of MikroORM's packages: a file that names none of them holds no MikroORM write. */
export const MIKRO_ORM_SCOPE = '@mikro-orm/';
/** MikroORM's packages: the core and its drivers (`@mikro-orm/postgresql`), and the NestJS module. */
const MIKRO_ORM_MODULES: readonly string[] = [
  'core',
  'postgresql',
  'mysql',
  'mariadb',
  'sqlite',
  'better-sqlite',
  'libsql',
  'mssql',
  'mongodb',
  'knex',
  'nestjs',
].map((name) => `${MIKRO_ORM_SCOPE}${name}`);

export const LIBRARY_READS_WRITES: Readonly<Record<DataLibrary, LibraryReadsWrites>> = {
  sql: {
    library: 'sql',
    modules: ['pg', 'postgres', 'mysql2', 'mysql2/promise', '@neondatabase/serverless', '@vercel/postgres'],
    reads: ['query', 'execute', '$queryRaw', '$queryRawUnsafe', 'raw', 'unsafe'],
    writes: ['query', 'execute', '$executeRaw', '$executeRawUnsafe', 'raw', 'unsafe'],
    atomicMethods: [],
    lockingMethods: [],
    atomicForm: 'UPDATE … SET {{field}} = {{field}} - $1 WHERE id = $2 AND {{field}} - $1 >= 0 (then check rowCount)',
  },
  prisma: {
    library: 'prisma',
    modules: ['@prisma/client'],
    reads: ['findUnique', 'findFirst', 'findUniqueOrThrow', 'findFirstOrThrow'],
    listReads: ['findMany'],
    writes: ['update', 'updateMany', 'upsert'],
    atomicMethods: [],
    lockingMethods: [],
    atomicForm: 'data: { {{field}}: { increment: n } } (or updateMany with the bound in where, then check count)',
  },
  typeorm: {
    library: 'typeorm',
    modules: ['typeorm', '@nestjs/typeorm'],
    reads: ['findOne', 'findOneBy', 'findOneOrFail', 'findOneByOrFail', 'getOne', 'getOneOrFail', 'getRawOne'],
    listReads: ['findBy'],
    writes: ['save', 'update'],
    atomicMethods: ['increment', 'decrement'],
    lockingMethods: ['setLock'],
    atomicForm:
      "repository.increment({ id }, '{{field}}', n) (or a query builder .set({ {{field}}: () => '{{field}} + 1' }) with the bound in where)",
  },
  sequelize: {
    library: 'sequelize',
    modules: ['sequelize', 'sequelize-typescript', '@sequelize/core', '@nestjs/sequelize'],
    reads: ['findByPk', 'findOne'],
    listReads: ['findAll'],
    writes: ['save', 'update'],
    atomicMethods: ['increment', 'decrement'],
    lockingMethods: [],
    atomicForm: "instance.increment('{{field}}', { by: n }) (or Model.increment with the bound in where)",
  },
  mongoose: {
    library: 'mongoose',
    modules: ['mongoose', '@nestjs/mongoose'],
    reads: ['findById', 'findOne'],
    writes: ['save', 'updateOne', 'updateMany', 'findOneAndUpdate', 'findByIdAndUpdate'],
    atomicMethods: [],
    lockingMethods: [],
    atomicForm: 'Model.updateOne({ _id, {{field}}: { $gte: n } }, { $inc: { {{field}}: -n } }) (then check modifiedCount)',
  },
  knex: {
    library: 'knex',
    modules: ['knex'],
    reads: ['first', 'select', 'pluck'],
    writes: ['update'],
    atomicMethods: ['increment', 'decrement'],
    lockingMethods: ['forUpdate', 'forNoKeyUpdate', 'forShare', 'forKeyShare'],
    atomicForm:
      "knex(table).where({ id }).increment('{{field}}', n) (or .update({ {{field}}: knex.raw('?? + ?', ['{{field}}', n]) }) with the bound in where)",
  },
  drizzle: {
    library: 'drizzle',
    modules: ['drizzle-orm'],
    reads: ['select', 'selectDistinct', 'findFirst'],
    writes: ['update'],
    atomicMethods: [],
    lockingMethods: ['for'],
    atomicForm: '.set({ {{field}}: sql`${table.{{field}}} + ${n}` }) with the bound in where (then check rowCount)',
  },
  kysely: {
    library: 'kysely',
    modules: ['kysely'],
    reads: ['selectFrom'],
    writes: ['updateTable'],
    atomicMethods: [],
    lockingMethods: ['forUpdate', 'forNoKeyUpdate', 'forShare', 'forKeyShare'],
    atomicForm: ".set((eb) => ({ {{field}}: eb('{{field}}', '+', n) })) with the bound in where (then check numUpdatedRows)",
  },
  // MikroORM's unit of work: a loaded entity's fields changed in JavaScript are written by the
  // entity manager's `flush()` (no argument: every changed entity it loaded) or `persistAndFlush(entity)`.
  mikroorm: {
    library: 'mikroorm',
    modules: MIKRO_ORM_MODULES,
    reads: ['findOne', 'findOneOrFail'],
    writes: ['flush', 'persistAndFlush'],
    atomicMethods: [],
    lockingMethods: [],
    atomicForm:
      "em.nativeUpdate(Entity, { id }, { {{field}}: raw('{{field}} + ?', [n]) }) with the bound in the filter (then check the count)",
  },
  // Strapi's query engine, document and entity services (strapi.ts): rows named by a content type's uid.
  strapi: STRAPI_READS_WRITES,
  // Key-value commands, not rows: the rule and the codemod's text pre-checks keep them apart
  // (`set` and `get` are everywhere), see REDIS_VALUE_READS / REDIS_VALUE_WRITES.
  redis: {
    library: 'redis',
    modules: REDIS_CLIENT_MODULES,
    reads: [...new Set(REDIS_VALUE_READS.map((command) => command.method))],
    writes: [...new Set(REDIS_VALUE_WRITES.map((command) => command.method))],
    atomicMethods: ['incr', 'incrby', 'incrBy', 'decrby', 'decrBy', 'hincrby', 'hIncrBy', 'incrbyfloat', 'incrByFloat', 'eval', 'evalsha'],
    lockingMethods: [],
    atomicForm: REDIS_ATOMIC_FORM,
  },
  // A NATS JetStream key-value bucket (kv-buckets.ts): a key's value put back without its revision.
  natsKv: NATS_KV_READS_WRITES,
  // Parse Server's SDK (parse-objects.ts): an object read by a query, a field set and saved.
  parse: PARSE_READS_WRITES,
  // supabase-js's PostgREST builder (supabase.ts): `.from(table).update(values).eq('id', id)`.
  supabase: SUPABASE_READS_WRITES,
};

/** The libraries whose reads and writes are rows (all but key-value commands: Redis, NATS buckets). */
export const ROW_LIBRARIES: readonly LibraryReadsWrites[] = Object.values(LIBRARY_READS_WRITES).filter(
  (entry) => entry.library !== 'redis' && entry.library !== 'natsKv',
);

/** The library whose module `source` is (`'@prisma/client'` → prisma), if any. */
export function libraryOfModule(source: string): DataLibrary | undefined {
  for (const entry of Object.values(LIBRARY_READS_WRITES)) {
    if (entry.modules.includes(source)) return entry.library;
  }
  return undefined;
}

/** A row's own primary key column (`id`, `pk`, `uuid`, Mongo's `_id`). */
export const PRIMARY_KEY_COLUMN = /^(?:id|pk|uuid|guid|_id)$/i;

/** Verbs a project helper that loads a row is named with (`findOrder`, `loadDocument`, `getUserById`, `fetchAccount`). */
export const LOADER_VERBS: readonly string[] = ['find', 'load', 'fetch', 'get', 'read'];
/** A name that reads (`getCustomer`, `this.rates.fetch`, `findOneByEmail`): the verb of a loader. */
export const LOADER_CALL_NAME = new RegExp(`^(?:${LOADER_VERBS.join('|')})(?:[A-Z]|$)`);

/**
 * Names of helpers that load one row (`loadByTaskId`, `findOneByEmail`): a loader's verb, then `One`
 * or `By`. The libraries' own reads (`findOneBy`, `findOne`) are collected as reads already, not as helpers.
 */
export const ROW_LOADER_NAME = new RegExp(`^(?!(?:${[...READ_METHODS].join('|')})$)(?:${LOADER_VERBS.join('|')})(?:One|By)\\w*$`);

/**
 * A row's bookkeeping stamp of its last change (`updatedAt`, `updated_at`, `modifiedOn`, `lastModified`):
 * written with every update, whatever the update does, so stamping it says nothing of the row's state.
 */
export const LAST_CHANGE_COLUMN = /^(?:updated|modified|last_?updated|last_?modified)(?:_?(?:at|on|date|time))?$/i;

/** Verbs a project helper that writes back the row it is handed is named with (`updateBalance`, `saveCounter`, `editMember`). */
export const WRITE_HELPER_VERBS: readonly string[] = ['update', 'save', 'edit'];
/** The same verb as the last of a helper's chained steps (`insertEntryAndUpdateBalance`, `logAndSaveCounter`): `And`, then the verb. */
export const CHAINED_WRITE_HELPER_VERB = `And(?:${WRITE_HELPER_VERBS.map((verb) => verb.charAt(0).toUpperCase() + verb.slice(1)).join('|')})`;

/** A helper's name that says it locks a row (`lockAsset…`, `lock`, `…ForUpdate`), the way `lockingMethods` are named. */
export const ROW_LOCK_HELPER_NAME = /^lock(?![a-z])|ForUpdate$/;
/** A row's identity (its primary key, or a key named `orderId`): never changed once written, so a value derived from it cannot be lost. */
export const IDENTITY_FIELD = new RegExp(`${PRIMARY_KEY_COLUMN.source}|[a-z0-9](?:Id|_id|Uuid)$`);

/** Prisma nested writes of a relation that add or drop links one by one (`{ kits: { connect: [{ id }] } }`): the list is not written whole (`set` is). */
export const PRISMA_LINK_OPERATIONS: readonly string[] = ['connect', 'disconnect', 'connectOrCreate'];

/** Keys of a Prisma field update that run in the database (`{ increment: 1 }`). */
export const PRISMA_ATOMIC_OPERATIONS: readonly string[] = ['increment', 'decrement', 'multiply', 'divide'];

/** Mongoose/MongoDB update operators that change a value in the database. */
export const MONGO_ATOMIC_OPERATORS: readonly string[] = [
  '$inc',
  '$mul',
  '$min',
  '$max',
  '$push',
  '$pull',
  '$addToSet',
  '$pop',
  '$currentDate',
];

/** Fields of a MongoDB update's result that count only the documents the update changed (a conditional update's verdict). */
export const MONGO_MODIFIED_COUNT_FIELDS: readonly string[] = ['modifiedCount', 'nModified'];

/** Drizzle `.for(strength)` / raw SQL `FOR …` strengths that stop a concurrent writer until commit. */
export const ROW_LOCK_STRENGTHS: readonly string[] = ['update', 'no key update', 'share'];

/**
 * Trailing calls of a read chain that only run or shape it (`.exec()`, `.lean()`, `.executeTakeFirst()`;
 * Mongoose's projection and joins: `Product.findById(id).select('quantity')`, `.populate('owner')`, `.orFail()`).
 */
export const QUERY_RUNNERS: readonly string[] = [
  'exec',
  'lean',
  'select',
  'populate',
  'orFail',
  'execute',
  'executeTakeFirst',
  'executeTakeFirstOrThrow',
  'session',
  'transacting',
];

/**
 * Calls that hand out a repository or model client for an entity (`dataSource.getRepository(Order)`,
 * `this.connection.getRepository(ctx, Order)`, `manager.withRepository(repo)`, `mongoose.model('User')`,
 * the MongoDB driver's `db.collection('accounts')`): a read or write called on their result is a
 * read or write of that entity.
 */
export const REPOSITORY_ACCESSORS: readonly string[] = [
  'getRepository',
  'getCustomRepository',
  'getMongoRepository',
  'getTreeRepository',
  'withRepository',
  'getModel',
  'model',
  'collection',
];

/** Repository accessors whose entity is named by a string (`mongoose.model('User')`, `db.collection('accounts')`). */
export const NAMED_BY_STRING_ACCESSORS: readonly string[] = ['model', 'getModel', 'collection'];

/** Calls that narrow a model and return it (Sequelize `User.scope('active')`, `unscoped()`, `schema(…)`): reads on it are reads of that model. */
export const MODEL_SCOPES: readonly string[] = ['scope', 'unscoped', 'schema'];

/** Calls that run a callback inside one database transaction (`prisma.$transaction(async (tx) => …)`, `sequelize.transaction(…)`, `knex.transaction(…)`, `dataSource.transaction(…)`). */
export const TRANSACTION_RUNNERS: readonly string[] = ['transaction', '$transaction', 'transactional', 'withTransaction'];

/** Trailing promise calls that pass the read row through (`repo.findOneBy(q).catch(notFound)`). */
export const PROMISE_PASS_THROUGH: readonly string[] = ['catch', 'finally'];

/** Calls that read one row afresh: an instance re-read in place (Sequelize / MikroORM `reload()`, `refresh()`) or looked up again by key. */
export const ROW_RE_READ_METHODS: readonly string[] = ['reload', 'refresh', 'findByPk', 'findById', 'findUnique', 'findUniqueOrThrow'];

/** Read methods that belong to one library by their name alone. */
export const SINGLE_LIBRARY_READS: Readonly<Record<string, DataLibrary>> = {
  findOneBy: 'typeorm',
  findOneOrFail: 'typeorm',
  findOneByOrFail: 'typeorm',
  findById: 'mongoose',
  findByPk: 'sequelize',
  // Meteor's collections take MongoDB's filters and update documents (meteor-collections.ts).
  ...Object.fromEntries(METEOR_DOCUMENT_READS.map((method) => [method, 'mongoose' as const])),
};

/**
 * List reads told by their name alone (`findAll` is Sequelize's, `findBy` TypeORM's), from the
 * entries' `listReads`; Prisma's `findMany` is told by its receiver (`prisma.order.findMany`).
 */
export const SINGLE_LIBRARY_LIST_READS: Readonly<Record<string, DataLibrary>> = Object.fromEntries(
  Object.values(LIBRARY_READS_WRITES)
    .filter((entry) => entry.library !== 'prisma')
    .flatMap((entry) => (entry.listReads ?? []).map((method) => [method, entry.library])),
);

/**
 * Model lifecycle hooks that run while an instance is being saved: a field changed from its own
 * loaded value there (`instance.revisions += 1`) is written back as an absolute value. Sequelize
 * (and sequelize-typescript decorators): the hook's first parameter is the instance.
 */
export const INSTANCE_SAVE_HOOKS = {
  decorators: ['BeforeUpdate', 'BeforeSave', 'BeforeUpsert'],
  hookNames: ['beforeUpdate', 'beforeSave', 'beforeUpsert'],
  /** `Model.addHook('beforeUpdate', fn)` */
  registrars: ['addHook', 'hook'],
} as const;

/** Methods on a value that compute a new one (decimal.js, big.js, bignumber.js, Dinero). */
export const ARITHMETIC_METHODS: readonly string[] = [
  'plus',
  'minus',
  'add',
  'sub',
  'subtract',
  'mul',
  'times',
  'multiply',
  'div',
  'dividedBy',
  'divide',
  'mod',
  'pow',
  'neg',
  'negated',
  'concat',
];

/** Calls that pass a number through unchanged in meaning (`Number(row.count)`). */
export const VALUE_PASS_THROUGH_FUNCTIONS: readonly string[] = ['Number', 'parseInt', 'parseFloat', 'BigInt', 'String'];

/**
 * Utility libraries' conversions that hand a value back as a number or string (`toNumber(x)` of
 * lodash, imported whole, by name or per method: `import toNumber from 'lodash/toNumber'`,
 * `lodash.tonumber`): the converted value stands for the loaded field, like `Number(x)`.
 */
export const CONVERSION_LIBRARIES: readonly string[] = ['lodash', 'lodash-es', 'underscore'];
export const LIBRARY_CONVERSIONS: readonly string[] = ['toNumber', 'toInteger', 'toSafeInteger', 'toFinite', 'toString'];

/**
 * Writes a loaded document or instance makes of itself (Mongoose `doc.save()`, `doc.remove()`,
 * Sequelize `instance.destroy()`): called with no argument but options, on the row, not on a model.
 */
export const SELF_WRITE_METHODS: readonly string[] = ['save', 'remove', 'destroy'];

/** The field of a driver's query result that holds the rows (pg's `result.rows`, mssql's `result.recordset`). */
export const RESULT_ROW_FIELDS: readonly string[] = ['rows', 'recordset'];

/**
 * Mongoose / MongoDB writes of one document that hand it back (`findOneAndUpdate(filter, update)`,
 * `findByIdAndDelete(id)`): a row update like any other — a claim when the filter re-checks the state
 * and the document returned is used, a mark when it is keyed by the row alone.
 */
export const DOCUMENT_WRITES: ReadonlySet<string> = new Set([
  'findOneAndUpdate',
  'findByIdAndUpdate',
  'findOneAndDelete',
  'findByIdAndDelete',
]);
