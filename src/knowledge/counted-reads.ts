// Reads that count stored rows, and the writes that insert a new row numbered from the count
// (no-read-then-write's `nextFromCount`): `const n = await prisma.order.count({ where })` then
// `prisma.order.create({ data: { code: `ORD-${n + 1}` } })`, `SELECT COUNT(*) FROM orders` then
// `INSERT INTO orders … ($1)` with `n + 1`. Two requests or replicas count the same rows.

/** ORM methods that answer the number of rows matching a filter (Prisma, TypeORM, Sequelize, Mongoose, MikroORM). */
export const COUNT_METHODS: ReadonlySet<string> = new Set(['count', 'countBy', 'countDocuments']);

/** SQL that counts rows; the table counted follows `FROM`. */
export const SQL_COUNT = /\bcount\s*\(/i;
export const SQL_FROM_TABLE = /\bfrom\s+["`]?(?:\w+["`]?\.["`]?)?(\w+)/i;
export const SQL_INSERT_TABLE = /\binsert\s+into\s+["`]?(?:\w+["`]?\.["`]?)?(\w+)/i;

/** Methods that add a new row (`save` of an entity built in the function counts: the entity is new). */
export const INSERTING_WRITES: ReadonlySet<string> = new Set(['create', 'createMany', 'insert', 'insertOne', 'insertMany', 'save']);

/** Calls that write a number as text without changing it: `String(n)`. */
export const TEXT_WRAPPERS: ReadonlySet<string> = new Set(['String']);

/** Methods of a number or its text that keep its value: `n.toString()`, `String(n).padStart(4, '0')`. */
export const TEXT_METHODS: ReadonlySet<string> = new Set(['toString', 'padStart', 'padEnd', 'toFixed']);
