import { describe, expect, test } from 'vitest';
import { Linter } from 'eslint';
import tsParser from '@typescript-eslint/parser';
import { jsRuleTester, ruleTester } from './rule-tester.js';
import { noReadThenWrite, type ReadThenWriteFacts } from '../../rules/no-read-then-write.js';
import type { Finding } from '../../rules/utils/create-rule.js';

const lines = (...l: string[]) => l.join('\n');

const PG = "import { Pool } from 'pg';\nconst pool = new Pool();";
const PRISMA = "import { PrismaClient } from '@prisma/client';\nconst prisma = new PrismaClient();";
const TYPEORM = "import { DataSource } from 'typeorm';";
const SEQUELIZE = "import { Model } from 'sequelize';";
const MONGOOSE = "import mongoose from 'mongoose';";
const KNEX = "import knex from 'knex';\nconst db = knex({ client: 'pg' });";
const DRIZZLE = "import { eq, sql } from 'drizzle-orm';";
const KYSELY = "import { Kysely, sql } from 'kysely';";

ruleTester.run('no-read-then-write', noReadThenWrite, {
  valid: [
    // application corpus: `+` building a file name from a read value is a string, not a counter
    lines(
      "import knex from 'knex';",
      'async function rename(primaryKey, data) {',
      "  const existing = await knex.select('type').from('files').where({ id: primaryKey }).first();",
      '  const payload = { ...existing, ...data };',
      "  const extension = payload.type && '.' + payload.type;",
      "  payload.filename_disk = primaryKey + (extension || '');",
      "  await knex('files').where({ id: primaryKey }).update(payload);",
      '}',
    ),
    // SQL: the arithmetic runs in the database
    lines(
      PG,
      'export async function withdraw(id: string, amount: number) {',
      "  const { rows } = await pool.query('SELECT balance FROM accounts WHERE id = $1', [id]);",
      '  if (rows[0].balance < amount) throw new Error();',
      "  await pool.query('UPDATE accounts SET balance = balance - $1 WHERE id = $2 AND balance >= $1', [amount, id]);",
      '}',
    ),
    // SQL: the write does not depend on the read
    lines(
      PG,
      'async function close(id: string) {',
      "  const { rows } = await pool.query('SELECT status, attempts FROM jobs WHERE id = $1', [id]);",
      "  if (rows[0].status !== 'open') return;",
      "  await pool.query('UPDATE jobs SET status = $1 WHERE id = $2', ['closed', rows[0].id]);",
      '}',
    ),
    // SQL: the read locks the row until the transaction ends
    lines(
      PG,
      'async function withdraw(client, id: string, amount: number) {',
      "  const { rows } = await client.query('SELECT balance FROM accounts WHERE id = $1 FOR UPDATE', [id]);",
      "  await client.query('UPDATE accounts SET balance = $1 WHERE id = $2', [rows[0].balance - amount, id]);",
      '}',
    ),
    // SQL: the words are in a comment and a string literal, not the statement
    lines(
      PG,
      'async function f(id: string) {',
      '  const { rows } = await pool.query("SELECT note FROM t WHERE id = $1 -- UPDATE t SET n = $2", [id]);',
      '  await pool.query("INSERT INTO log (msg) VALUES (\'UPDATE t SET n = 1\')");',
      '}',
    ),
    // SQL: unparsable text is skipped silently
    lines(
      PG,
      'async function f(id: string) {',
      "  const { rows } = await pool.query('SELECT n FROM t WHERE id = $1', [id]);",
      "  await pool.query('UPDATE t SET n = $1 WHERE note = \\'unterminated', [rows[0].n + 1]);",
      '}',
    ),
    // Prisma increment / decrement
    lines(
      PRISMA,
      'export async function view(id: string) {',
      '  const post = await prisma.post.findUnique({ where: { id } });',
      '  if (!post) return;',
      '  await prisma.post.update({ where: { id: post.id }, data: { views: { increment: 1 } } });',
      '}',
    ),
    lines(
      PRISMA,
      'async function withdraw(id: string, amount: number) {',
      '  const account = await prisma.account.findUniqueOrThrow({ where: { id } });',
      '  if (account.balance < amount) throw new Error();',
      '  await prisma.account.updateMany({ where: { id, balance: { gte: amount } }, data: { balance: { decrement: amount } } });',
      '}',
    ),
    // Prisma: a rename and a copied id do not depend on arithmetic on the read
    lines(
      PRISMA,
      'async function rename(id: string, name: string) {',
      '  const user = await prisma.user.findFirst({ where: { id } });',
      '  await prisma.user.update({ where: { id: user.id }, data: { name, ownerId: user.teamId } });',
      '}',
    ),
    // Prisma: the computed value comes from the request, not the database
    lines(
      PRISMA,
      'async function set(id: string, input: { credits: number }) {',
      '  await prisma.user.findUnique({ where: { id } });',
      '  await prisma.user.update({ where: { id }, data: { credits: input.credits + 1 } });',
      '}',
    ),
    // reads and writes in different functions
    lines(
      PRISMA,
      'async function load(id: string) {',
      '  const user = await prisma.user.findUnique({ where: { id } });',
      '  return user.credits;',
      '}',
      'async function save(id: string, credits: number) {',
      '  await prisma.user.update({ where: { id }, data: { credits: credits - 1 } });',
      '}',
    ),
    // a parameter shadows an outer read
    lines(
      PRISMA,
      'async function outer(id: string) {',
      '  const user = await prisma.user.findUnique({ where: { id } });',
      '  const bump = async (user: { credits: number }) => prisma.user.update({ where: { id }, data: { credits: user.credits + 1 } });',
      '  return bump;',
      '}',
    ),
    // TypeORM: repository.increment and a field set to a constant
    lines(
      TYPEORM,
      'async function view(repo, id: number) {',
      '  const post = await repo.findOneBy({ id });',
      "  await repo.increment({ id: post.id }, 'views', 1);",
      '}',
    ),
    lines(
      TYPEORM,
      'async function publish(repo, id: number) {',
      '  const post = await repo.findOneBy({ id });',
      "  post.status = 'published';",
      '  post.publishedAt = new Date();',
      '  await repo.save(post);',
      '}',
    ),
    // TypeORM: a pessimistic lock on the read
    lines(
      TYPEORM,
      'async function take(manager, id: number) {',
      "  const item = await manager.findOne(Item, { where: { id }, lock: { mode: 'pessimistic_write' } });",
      '  item.stock -= 1;',
      '  await manager.save(item);',
      '}',
    ),
    // TypeORM query builder with SQL arithmetic
    lines(
      TYPEORM,
      'async function view(ds, id: number) {',
      '  const post = await ds.getRepository(Post).findOneBy({ id });',
      "  await ds.createQueryBuilder().update(Post).set({ views: () => 'views + 1' }).where('id = :id', { id: post.id }).execute();",
      '}',
    ),
    // Sequelize: instance.increment and a lock
    lines(
      SEQUELIZE,
      'async function view(id: number) {',
      '  const post = await Post.findByPk(id);',
      "  await post.increment('views', { by: 1 });",
      '}',
    ),
    lines(
      SEQUELIZE,
      'async function take(id: number, t) {',
      '  const item = await Item.findByPk(id, { transaction: t, lock: t.LOCK.UPDATE });',
      '  item.stock = item.stock - 1;',
      '  await item.save({ transaction: t });',
      '}',
    ),
    // Mongoose $inc and a status change
    lines(
      MONGOOSE,
      'async function view(id: string) {',
      '  const post = await Post.findById(id);',
      '  await Post.updateOne({ _id: post._id }, { $inc: { views: 1 } });',
      '}',
    ),
    lines(
      MONGOOSE,
      'async function close(id: string) {',
      '  const doc = await Ticket.findById(id);',
      "  doc.status = 'closed';",
      '  await doc.save();',
      '}',
    ),
    // Knex increment, and a row lock
    lines(
      KNEX,
      'async function view(id: number) {',
      "  const post = await db('posts').where({ id }).first();",
      "  await db('posts').where({ id: post.id }).increment('views', 1);",
      '}',
    ),
    lines(
      KNEX,
      'async function take(trx, id: number) {',
      "  const item = await trx('items').where({ id }).forUpdate().first();",
      "  await trx('items').where({ id }).update({ stock: item.stock - 1 });",
      '}',
    ),
    // Drizzle sql arithmetic, and a row lock
    lines(
      DRIZZLE,
      'async function withdraw(db, id: string, amount: number) {',
      '  const [row] = await db.select().from(accounts).where(eq(accounts.id, id));',
      '  if (row.balance < amount) throw new Error();',
      '  await db.update(accounts).set({ balance: sql`${accounts.balance} - ${amount}` }).where(eq(accounts.id, id));',
      '}',
    ),
    lines(
      DRIZZLE,
      'async function withdraw(tx, id: string, amount: number) {',
      "  const [row] = await tx.select().from(accounts).where(eq(accounts.id, id)).for('update');",
      '  await tx.update(accounts).set({ balance: row.balance - amount }).where(eq(accounts.id, id));',
      '}',
    ),
    // Kysely expression builder arithmetic, and a row lock
    lines(
      KYSELY,
      'async function withdraw(db, id: string, amount: number) {',
      "  const row = await db.selectFrom('accounts').select('balance').where('id', '=', id).executeTakeFirstOrThrow();",
      "  await db.updateTable('accounts').set((eb) => ({ balance: eb('balance', '-', amount) })).where('id', '=', id).execute();",
      '}',
    ),
    lines(
      KYSELY,
      'async function withdraw(trx, id: string, amount: number) {',
      "  const row = await trx.selectFrom('accounts').select('balance').where('id', '=', id).forUpdate().executeTakeFirstOrThrow();",
      "  await trx.updateTable('accounts').set({ balance: row.balance - amount }).where('id', '=', id).execute();",
      '}',
    ),
    // not a database: a Map and lodash
    lines(
      "import { createHash } from 'node:crypto';",
      KNEX,
      'async function digest(id: number) {',
      "  const row = await db('files').where({ id }).first();",
      "  return createHash('sha256').update(String(row.size + 1)).digest('hex');",
      '}',
    ),
    lines(
      'function bump(cache: Map<string, number>, key: string) {',
      '  const n = cache.get(key) ?? 0;',
      '  cache.set(key, n + 1);',
      '  const first = _.first(list);',
      '  store.update({ n: first + 1 });',
      '}',
    ),
    // ignoreFields
    {
      code: lines(
        PRISMA,
        'async function read(id: string) {',
        '  const cursor = await prisma.cursor.findUnique({ where: { id } });',
        '  await prisma.cursor.update({ where: { id }, data: { position: cursor.position + 1 } });',
        '}',
      ),
      options: [{ ignoreFields: ['position'] }],
    },
    // odd input never throws
    lines(
      'async function f() {',
      '  const x = await (a.b)[c]();',
      '  x.y++;',
      '  await x.save();',
      '  [].forEach(() => {});',
      '  await foo.update();',
      '  await sql``;',
      '}',
    ),
    // compare-and-set: the write applies only if the row still holds what was read
    lines(
      PRISMA,
      'async function withdraw(id: string, amount: number) {',
      '  const account = await prisma.account.findUnique({ where: { id } });',
      '  const { count } = await prisma.account.updateMany({ where: { id, version: account.version }, data: { balance: account.balance - amount, version: { increment: 1 } } });',
      "  if (count === 0) throw new Error('retry');",
      '}',
    ),
    lines(
      PG,
      'async function withdraw(id: string, amount: number) {',
      "  const { rows: [row] } = await pool.query('SELECT balance FROM accounts WHERE id = $1', [id]);",
      "  const res = await pool.query('UPDATE accounts SET balance = $1 WHERE id = $2 AND balance = $3', [row.balance - amount, id, row.balance]);",
      '  if (res.rowCount === 0) throw new Error();',
      '}',
    ),
    lines(
      DRIZZLE,
      "import { and } from 'drizzle-orm';",
      'async function withdraw(db, id: string, amount: number) {',
      '  const [row] = await db.select().from(accounts).where(eq(accounts.id, id));',
      '  await db.update(accounts).set({ balance: row.balance - amount }).where(and(eq(accounts.id, id), eq(accounts.balance, row.balance)));',
      '}',
    ),
    // the saved entity is not the one changed from the read
    lines(
      TYPEORM,
      'async function copy(repo, id: number) {',
      '  const post = await repo.findOneBy({ id });',
      '  const draft = repo.create({ title: post.title, views: 0 });',
      '  post.views += 1;',
      '  await repo.save(draft);',
      '}',
    ),
    // a value moved to another table is not written back
    lines(
      PRISMA,
      'async function invoice(id: string) {',
      '  const order = await prisma.order.findUnique({ where: { id } });',
      '  await prisma.invoice.update({ where: { orderId: id }, data: { total: order.total * 1.2 } });',
      '}',
    ),
    lines(
      PG,
      'async function invoice(id: string) {',
      "  const { rows } = await pool.query('SELECT total FROM public.orders WHERE id = $1', [id]);",
      "  await pool.query('UPDATE invoices SET total = $1 WHERE order_id = $2', [rows[0].total * 1.2, id]);",
      '}',
    ),
    // building a string from the read is not a counter
    lines(
      PRISMA,
      'async function label(id: string) {',
      '  const user = await prisma.user.findUnique({ where: { id } });',
      "  await prisma.user.update({ where: { id }, data: { displayName: user.first + ' ' + user.last, slug: `${user.first}-${user.id}` } });",
      '}',
    ),
  ],
  invalid: [
    // A helper's answer is asked only where it decides something; one that is no read keeps the read
    // a branch assigned over (`if (!counter) counter = await fallback()`) ...
    {
      code: lines(
        TYPEORM,
        'async function fallback() {',
        '  return { count: 0 };',
        '}',
        'export async function bump(repo, id: string) {',
        '  let counter = await repo.findOneBy({ id });',
        '  if (!counter) counter = await fallback();',
        '  await repo.update({ id }, { count: counter.count + 1 });',
        '}',
      ),
      errors: [{ messageId: 'typeorm', data: { field: 'count' }, line: 8, column: 14 }],
    },
    // ... and gives way to the read it meets (`cached ?? await repo.findOneBy(…)`)
    {
      code: lines(
        TYPEORM,
        'const memo = new Map();',
        'function cachedCounter(id: string) {',
        '  return memo.get(id);',
        '}',
        'export async function bump(repo, id: string) {',
        '  const cached = cachedCounter(id);',
        '  const counter = cached ?? (await repo.findOneBy({ id }));',
        '  await repo.update({ id }, { count: counter.count + 1 });',
        '}',
      ),
      errors: [{ messageId: 'typeorm', data: { field: 'count' }, line: 9, column: 14 }],
    },
    // ---- raw SQL (pg)
    {
      code: lines(
        PG,
        'export async function withdraw(id: string, amount: number) {',
        "  const { rows } = await pool.query('SELECT balance FROM accounts WHERE id = $1', [id]);",
        '  const next = rows[0].balance - amount;',
        "  await pool.query('UPDATE accounts SET balance = $1 WHERE id = $2', [next, id]);",
        '}',
      ),
      errors: [{ messageId: 'sql', data: { field: 'balance' }, line: 6, column: 41, endLine: 6, endColumn: 48 }],
    },
    // through `-=` on a local
    {
      code: lines(
        PG,
        'async function withdraw(client, id: string, amount: number) {',
        "  const res = await client.query({ text: 'SELECT balance FROM accounts WHERE id = $1', values: [id] });",
        '  let balance = res.rows[0].balance;',
        '  balance -= amount;',
        "  await client.query({ text: 'UPDATE accounts SET balance = $1 WHERE id = $2', values: [balance, id] });",
        '}',
      ),
      errors: [{ messageId: 'sql', line: 7, column: 51 }],
    },
    // SQL constants passed by name
    {
      code: lines(
        PG,
        "const SELECT_STOCK = 'SELECT stock FROM products WHERE id = $1';",
        "const UPDATE_STOCK = 'UPDATE products SET stock = $1 WHERE id = $2';",
        'async function take(id: string, qty: number) {',
        '  const { rows: [product] } = await pool.query(SELECT_STOCK, [id]);',
        '  await pool.query(UPDATE_STOCK, [product.stock - qty, id]);',
        '}',
      ),
      errors: [{ messageId: 'sql', line: 4, column: 43 }],
    },
    // postgres.js tagged templates
    {
      code: lines(
        "import postgres from 'postgres';",
        'const sql = postgres();',
        'async function take(id: string, qty: number) {',
        '  const [row] = await sql`SELECT stock FROM products WHERE id = ${id}`;',
        '  await sql`UPDATE products SET stock = ${row.stock - qty} WHERE id = ${id}`;',
        '}',
      ),
      errors: [{ messageId: 'sql', line: 5, column: 33 }],
    },
    // Prisma raw
    {
      code: lines(
        PRISMA,
        'async function bump(id: string) {',
        '  const [row] = await prisma.$queryRaw`SELECT hits FROM pages WHERE id = ${id}`;',
        '  const hits = Number(row.hits) + 1;',
        '  await prisma.$executeRaw`UPDATE pages SET hits = ${hits} WHERE id = ${id}`;',
        '}',
      ),
      errors: [{ messageId: 'sql', line: 6, column: 45 }],
    },
    // each row of a SELECT, in a loop
    {
      code: lines(
        PG,
        'async function accrue(rate: number) {',
        "  const { rows } = await pool.query('SELECT id, balance FROM accounts');",
        '  for (const account of rows) {',
        "    await pool.query('UPDATE accounts SET balance = $1 WHERE id = $2', [account.balance * (1 + rate), account.id]);",
        '  }',
        '}',
      ),
      errors: [{ messageId: 'sql', line: 6, column: 43 }],
    },
    // the loop's read is the first of its function: a read in an earlier function left none live
    {
      code: lines(
        "import postgres from 'postgres';",
        'const sql = postgres();',
        'async function list() {',
        '  return sql`SELECT id FROM products`;',
        '}',
        'async function restock(qty: number) {',
        '  for (const row of await sql`SELECT id, stock FROM products`) {',
        '    await sql`UPDATE products SET stock = ${row.stock + qty} WHERE id = ${row.id}`;',
        '  }',
        '}',
      ),
      errors: [{ messageId: 'sql', data: { field: 'stock' }, line: 8, column: 35 }],
    },
    // a callback nested in the function holding the read sees its tainted names
    {
      code: lines(
        PRISMA,
        'async function noop() {}',
        'async function spend(id: string, cost: number) {',
        '  const user = await prisma.user.findUnique({ where: { id } });',
        '  await retry(async () => {',
        '    await prisma.user.update({ where: { id }, data: { credits: user.credits - cost } });',
        '  });',
        '}',
      ),
      errors: [{ messageId: 'prisma', data: { field: 'credits' }, line: 7, column: 23 }],
    },
    // ---- Prisma
    {
      code: lines(
        PRISMA,
        'export async function withdraw(id: string, amount: number) {',
        '  const account = await prisma.account.findUnique({ where: { id } });',
        '  await prisma.account.update({ where: { id }, data: { balance: account.balance - amount } });',
        '}',
      ),
      errors: [{ messageId: 'prisma', data: { field: 'balance' }, line: 5, column: 24, endLine: 5, endColumn: 30 }],
    },
    // shorthand property
    {
      code: lines(
        PRISMA,
        'async function view(id: string) {',
        '  const post = await prisma.post.findFirstOrThrow({ where: { id } });',
        '  const views = post.views + 1;',
        '  await prisma.post.update({ where: { id }, data: { views } });',
        '}',
      ),
      errors: [{ messageId: 'prisma', line: 6, column: 21 }],
    },
    // `++` on a local, and `{ set }`
    {
      code: lines(
        PRISMA,
        'async function view(id: string) {',
        '  const post = await prisma.post.findUniqueOrThrow({ where: { id } });',
        '  let views = post.views;',
        '  views++;',
        '  await prisma.post.update({ where: { id }, data: { views: { set: views } } });',
        '}',
      ),
      errors: [{ messageId: 'prisma', line: 7, column: 21 }],
    },
    // destructuring inside an interactive transaction
    {
      code: lines(
        PRISMA,
        'async function take(id: string, qty: number) {',
        '  await prisma.$transaction(async (tx) => {',
        '    const { stock } = await tx.product.findUnique({ where: { id } });',
        '    await tx.product.update({ where: { id }, data: { stock: stock - qty } });',
        '  });',
        '}',
      ),
      errors: [{ messageId: 'prisma', line: 6, column: 22 }],
    },
    // upsert, with a Decimal
    {
      code: lines(
        PRISMA,
        'async function credit(userId: string, amount: number) {',
        '  const wallet = await prisma.wallet.findFirst({ where: { userId } });',
        '  await prisma.wallet.upsert({ where: { userId }, create: { userId, balance: amount }, update: { balance: wallet.balance.plus(amount) } });',
        '}',
      ),
      errors: [{ messageId: 'prisma', line: 5, column: 23 }],
    },
    // a patch object built from the read
    {
      code: lines(
        PRISMA,
        'async function spend(id: string, cost: number) {',
        '  const user = await prisma.user.findUnique({ where: { id } });',
        '  const patch: Record<string, number> = {};',
        '  patch.credits = Math.max(0, user.credits - cost);',
        '  await prisma.user.update({ where: { id }, data: patch });',
        '}',
      ),
      errors: [{ messageId: 'prisma', line: 7, column: 21 }],
    },
    // ---- TypeORM
    {
      code: lines(
        TYPEORM,
        'export async function view(repo, id: number) {',
        '  const post = await repo.findOneBy({ id });',
        '  post.views++;',
        '  await repo.save(post);',
        '}',
      ),
      errors: [{ messageId: 'typeorm', line: 5, column: 14 }],
    },
    {
      code: lines(
        TYPEORM,
        'async function view(repo, id: number) {',
        '  const post = await repo.findOne({ where: { id } });',
        '  post.views += 1;',
        '  return repo.save(post);',
        '}',
      ),
      errors: [{ messageId: 'typeorm', line: 5, column: 15 }],
    },
    {
      code: lines(
        TYPEORM,
        'async function take(manager, id: number) {',
        '  const item = await manager.findOneOrFail(Item, { where: { id } });',
        '  item.stock = item.stock - 1;',
        '  await manager.save(item);',
        '}',
      ),
      errors: [{ messageId: 'typeorm', line: 5, column: 17 }],
    },
    {
      code: lines(
        TYPEORM,
        'async function take(repo, id: number) {',
        '  const item = await repo.findOneByOrFail({ id });',
        '  await repo.update(id, { stock: item.stock - 1 });',
        '}',
      ),
      errors: [{ messageId: 'typeorm', line: 4, column: 14 }],
    },
    // through a spread copy
    {
      code: lines(
        TYPEORM,
        'async function view(repo, id: number) {',
        '  const post = await repo.findOneBy({ id });',
        '  await repo.save({ ...post, views: post.views + 1 });',
        '}',
      ),
      errors: [{ messageId: 'typeorm', line: 4, column: 14 }],
    },
    // ---- Sequelize
    {
      code: lines(
        SEQUELIZE,
        'export async function view(id: number) {',
        '  const post = await Post.findByPk(id);',
        '  post.views += 1;',
        '  await post.save();',
        '}',
      ),
      errors: [{ messageId: 'sequelize', line: 5, column: 14 }],
    },
    {
      code: lines(
        SEQUELIZE,
        'async function spend(id: number, cost: number) {',
        '  const user = await User.findOne({ where: { id } });',
        '  await user.update({ credits: user.credits - cost });',
        '}',
      ),
      errors: [{ messageId: 'sequelize', line: 4, column: 14 }],
    },
    {
      code: lines(
        SEQUELIZE,
        'async function take(id: number) {',
        '  const item = await Item.findByPk(id);',
        '  await Item.update({ stock: item.stock - 1 }, { where: { id } });',
        '}',
      ),
      errors: [{ messageId: 'sequelize', line: 4, column: 14 }],
    },
    {
      code: lines(
        SEQUELIZE,
        'async function view(id: number) {',
        '  const post = await Post.findByPk(id);',
        "  post.set('views', post.views + 1);",
        '  await post.save();',
        '}',
      ),
      errors: [{ messageId: 'sequelize', line: 5, column: 14 }],
    },
    // ---- Mongoose
    {
      code: lines(
        MONGOOSE,
        'export async function next(name: string) {',
        '  const counter = await Counter.findById(name);',
        '  counter.seq += 1;',
        '  await counter.save();',
        '  return counter.seq;',
        '}',
      ),
      errors: [{ messageId: 'mongoose', line: 5, column: 17 }],
    },
    {
      code: lines(
        MONGOOSE,
        'async function withdraw(id: string, amount: number) {',
        '  const account = await Account.findOne({ _id: id });',
        '  account.balance = account.balance - amount;',
        '  await account.save();',
        '}',
      ),
      errors: [{ messageId: 'mongoose', line: 5, column: 17 }],
    },
    {
      code: lines(
        MONGOOSE,
        'async function take(id: string, qty: number) {',
        '  const product = await Product.findById(id).lean();',
        '  await Product.updateOne({ _id: id }, { $set: { stock: product.stock - qty } });',
        '}',
      ),
      errors: [{ messageId: 'mongoose', line: 4, column: 17 }],
    },
    {
      code: lines(
        MONGOOSE,
        'async function view(id: string) {',
        '  const post = await Post.findOne({ slug: id }).exec();',
        '  await Post.findByIdAndUpdate(post._id, { views: post.views + 1 });',
        '}',
      ),
      errors: [{ messageId: 'mongoose', line: 4, column: 14 }],
    },
    // ---- Knex
    {
      code: lines(
        KNEX,
        'export async function withdraw(id: number, amount: number) {',
        "  const row = await db('accounts').where({ id }).first();",
        "  await db('accounts').where({ id }).update({ balance: row.balance - amount });",
        '}',
      ),
      errors: [{ messageId: 'knex', line: 5, column: 38 }],
    },
    {
      code: lines(
        KNEX,
        'async function take(trx, id: number) {',
        "  const [item] = await trx('items').where({ id }).select('stock');",
        "  await trx('items').where({ id }).update('stock', item.stock - 1);",
        '}',
      ),
      errors: [{ messageId: 'knex', line: 5, column: 36 }],
    },
    // ---- Drizzle
    {
      code: lines(
        DRIZZLE,
        'export async function withdraw(db, id: string, amount: number) {',
        '  const [row] = await db.select().from(accounts).where(eq(accounts.id, id));',
        '  await db.update(accounts).set({ balance: row.balance - amount }).where(eq(accounts.id, id));',
        '}',
      ),
      errors: [{ messageId: 'drizzle', line: 4, column: 12 }],
    },
    {
      code: lines(
        DRIZZLE,
        'async function view(db, id: string) {',
        '  const post = await db.query.posts.findFirst({ where: eq(posts.id, id) });',
        '  const views = (post?.views ?? 0) + 1;',
        '  await db.update(posts).set({ views }).where(eq(posts.id, id));',
        '}',
      ),
      errors: [{ messageId: 'drizzle', line: 5, column: 12 }],
    },
    // ---- Kysely
    {
      code: lines(
        KYSELY,
        'export async function withdraw(db, id: string, amount: number) {',
        "  const row = await db.selectFrom('accounts').select('balance').where('id', '=', id).executeTakeFirstOrThrow();",
        "  await db.updateTable('accounts').set({ balance: row.balance - amount }).where('id', '=', id).execute();",
        '}',
      ),
      errors: [{ messageId: 'kysely', line: 4, column: 12 }],
    },
    {
      code: lines(
        KYSELY,
        'async function view(db, id: string) {',
        "  const { views } = await db.selectFrom('posts').select('views').where('id', '=', id).executeTakeFirstOrThrow();",
        "  await db.updateTable('posts').set(() => ({ views: views + 1 })).where('id', '=', id).execute();",
        '}',
      ),
      errors: [{ messageId: 'kysely', line: 4, column: 12 }],
    },
    // NestJS services: `this.prisma`, `this.repo`
    {
      code: lines(
        "import { Injectable } from '@nestjs/common';",
        PRISMA,
        '@Injectable()',
        'export class WalletService {',
        '  constructor(private readonly prisma: PrismaClient) {}',
        '  async credit(userId: string, amount: number) {',
        '    const wallet = await this.prisma.wallet.findUniqueOrThrow({ where: { userId } });',
        '    return this.prisma.wallet.update({ where: { userId }, data: { balance: wallet.balance + amount } });',
        '  }',
        '}',
      ),
      errors: [{ messageId: 'prisma', line: 9, column: 31 }],
    },
    {
      code: lines(
        "import { InjectRepository } from '@nestjs/typeorm';",
        'export class QuotaService {',
        '  constructor(@InjectRepository(Quota) private readonly repo: Repository<Quota>) {}',
        '  async use(tenantId: string, n: number) {',
        '    const quota = await this.repo.findOne({ where: { tenantId } });',
        '    quota.used -= -n;',
        '    await this.repo.save(quota);',
        '  }',
        '}',
      ),
      errors: [{ messageId: 'typeorm', line: 7, column: 21 }],
    },
    {
      code: lines(
        "import { Table, Model } from 'sequelize-typescript';",
        'async function take(sku: string) {',
        '  const item = await Item.findOne({ where: { sku } });',
        '  await Item.update({ stock: item.stock - 1 }, { where: { sku } });',
        '}',
      ),
      errors: [{ messageId: 'sequelize', line: 4, column: 14 }],
    },
    // a table alias in the read, and a schema-qualified table in raw SQL
    {
      code: lines(
        KYSELY,
        'async function take(db, id: string) {',
        "  const item = await db.selectFrom('items as i').select('i.stock').where('i.id', '=', id).executeTakeFirstOrThrow();",
        "  await db.updateTable('items').set({ stock: item.stock - 1 }).where('id', '=', id).execute();",
        '}',
      ),
      errors: [{ messageId: 'kysely', line: 4, column: 12 }],
    },
    {
      code: lines(
        PG,
        'async function take(id: string) {',
        "  const { rows } = await pool.query('SELECT stock FROM public.items WHERE id = $1', [id]);",
        "  await pool.query('UPDATE public.items SET stock = $1 WHERE id = $2', [rows[0].stock - 1, id]);",
        '}',
      ),
      errors: [{ messageId: 'sql', line: 5, column: 45 }],
    },
    // a field changed on the entity, then sent by update
    {
      code: lines(
        TYPEORM,
        'async function view(repo, id: number) {',
        '  const post = await repo.findOneByOrFail({ id });',
        '  post.views++;',
        '  await repo.update({ id }, { views: post.views });',
        '}',
      ),
      errors: [{ messageId: 'typeorm', line: 5, column: 14 }],
    },
  ],
});

// Plain JavaScript (espree), CommonJS and ESM.
jsRuleTester.run('no-read-then-write', noReadThenWrite, {
  valid: [
    lines(
      "const { Pool } = require('pg');",
      'const pool = new Pool();',
      'async function bump(id) {',
      "  await pool.query('SELECT hits FROM pages WHERE id = $1', [id]);",
      "  await pool.query('UPDATE pages SET hits = hits + 1 WHERE id = $1', [id]);",
      '}',
    ),
    lines(
      "const mongoose = require('mongoose');",
      'async function view(id) {',
      '  const post = await Post.findById(id);',
      '  await Post.updateOne({ _id: post._id }, { $inc: { views: 1 }, $set: { lastViewedAt: new Date() } });',
      '}',
    ),
    lines(
      "const { Sequelize } = require('sequelize');",
      'async function take(id) {',
      '  const item = await Item.findByPk(id);',
      "  await Item.decrement('stock', { by: 1, where: { id: item.id } });",
      '}',
    ),
    lines(
      "const knex = require('knex')({ client: 'pg' });",
      'async function take(id) {',
      "  const item = await knex('items').where({ id }).first();",
      "  await knex('items').where({ id: item.id }).update({ stock: knex.raw('?? - 1', ['stock']) });",
      '}',
    ),
    lines(
      "const { PrismaClient } = require('@prisma/client');",
      'const prisma = new PrismaClient();',
      'async function view(id) {',
      '  const post = await prisma.post.findUnique({ where: { id } });',
      '  await prisma.post.update({ where: { id }, data: { views: { increment: 1 }, title: post.title } });',
      '}',
    ),
    lines(
      "const { DataSource } = require('typeorm');",
      'async function view(repo, id) {',
      '  const post = await repo.findOneBy({ id });',
      "  await repo.increment({ id: post.id }, 'views', 1);",
      '}',
    ),
    lines(
      DRIZZLE,
      'async function view(db, id) {',
      '  const post = await db.query.posts.findFirst({ where: eq(posts.id, id) });',
      '  await db.update(posts).set({ views: sql`${posts.views} + 1`, title: post.title }).where(eq(posts.id, id));',
      '}',
    ),
    lines(
      KYSELY,
      'async function view(db, id) {',
      "  const post = await db.selectFrom('posts').select('views').where('id', '=', id).executeTakeFirst();",
      "  await db.updateTable('posts').set({ views: sql`views + 1` }).where('id', '=', id).execute();",
      '}',
    ),
    // reads and writes in different functions
    lines(
      MONGOOSE,
      'async function load(id) {',
      '  const doc = await Counter.findById(id);',
      '  return doc.seq;',
      '}',
      'async function store(id, seq) {',
      '  await Counter.updateOne({ _id: id }, { $set: { seq: seq + 1 } });',
      '}',
    ),
  ],
  invalid: [
    {
      code: lines(
        "const { Pool } = require('pg');",
        'const pool = new Pool();',
        'async function bump(id) {',
        "  const res = await pool.query('SELECT hits FROM pages WHERE id = $1', [id]);",
        '  const hits = res.rows[0].hits + 1;',
        "  await pool.query('UPDATE pages SET hits = $1 WHERE id = $2', [hits, id]);",
        '}',
      ),
      errors: [{ messageId: 'sql', line: 6, column: 38 }],
    },
    // mysql2-style `?` placeholders
    {
      code: lines(
        "const mysql = require('mysql2/promise');",
        'async function take(conn, id, qty) {',
        "  const [rows] = await conn.execute('SELECT stock FROM products WHERE id = ?', [id]);",
        "  await conn.execute('UPDATE products SET stock = ? WHERE id = ?', [rows[0].stock - qty, id]);",
        '}',
      ),
      errors: [{ messageId: 'sql', line: 4, column: 43 }],
    },
    {
      code: lines(
        "const { PrismaClient } = require('@prisma/client');",
        'const prisma = new PrismaClient();',
        'async function spend(id, cost) {',
        '  const user = await prisma.user.findUnique({ where: { id } });',
        '  const credits = user.credits > cost ? user.credits - cost : 0;',
        '  await prisma.user.update({ where: { id }, data: { credits } });',
        '}',
      ),
      errors: [{ messageId: 'prisma', line: 6, column: 21 }],
    },
    // ambiguous findOne: the import says TypeORM
    {
      code: lines(
        "const { DataSource } = require('typeorm');",
        'async function view(repo, id) {',
        '  const post = await repo.findOne({ where: { id } });',
        '  post.views = post.views + 1;',
        '  await repo.save(post);',
        '}',
      ),
      errors: [{ messageId: 'typeorm', line: 5, column: 14 }],
    },
    // ambiguous findOne: the import says Sequelize
    {
      code: lines(
        SEQUELIZE,
        'async function view(id) {',
        '  const post = await Post.findOne({ where: { id } });',
        '  post.views++;',
        '  await post.save();',
        '}',
      ),
      errors: [{ messageId: 'sequelize', line: 5, column: 14 }],
    },
    {
      code: lines(
        "const mongoose = require('mongoose');",
        'async function next(name) {',
        '  const counter = await Counter.findOne({ name });',
        '  Object.assign(counter, { seq: counter.seq + 1 });',
        '  await counter.save();',
        '}',
      ),
      errors: [{ messageId: 'mongoose', line: 5, column: 17 }],
    },
    {
      code: lines(
        "const knex = require('knex')({ client: 'pg' });",
        'async function take(id, qty) {',
        "  const { stock } = await knex('items').where({ id }).first('stock');",
        "  await knex('items').where({ id }).update({ stock: stock - qty });",
        '}',
      ),
      errors: [{ messageId: 'knex', line: 4, column: 37 }],
    },
    // each element of a read iterated by a callback
    {
      code: lines(
        KNEX,
        'async function accrue(rate) {',
        "  const accounts = await db('accounts').where({ active: true }).select('id', 'balance');",
        "  await Promise.all(accounts.map((a) => db('accounts').where({ id: a.id }).update({ balance: a.balance * (1 + rate) })));",
        '}',
      ),
      errors: [{ messageId: 'knex', line: 5, column: 76 }],
    },
    {
      code: lines(
        DRIZZLE,
        'export async function withdraw(db, id, amount) {',
        '  const [{ balance }] = await db.select({ balance: accounts.balance }).from(accounts).where(eq(accounts.id, id));',
        "  if (balance < amount) throw new Error('insufficient funds');",
        '  await db.update(accounts).set({ balance: balance - amount }).where(eq(accounts.id, id));',
        '}',
      ),
      errors: [{ messageId: 'drizzle', line: 5, column: 12 }],
    },
    {
      code: lines(
        KYSELY,
        'async function view(db, id) {',
        "  const post = await db.selectFrom('posts').selectAll().where('id', '=', id).executeTakeFirst();",
        "  await db.updateTable('posts').set('views', post.views + 1).where('id', '=', id).execute();",
        '}',
      ),
      errors: [{ messageId: 'kysely', line: 4, column: 12 }],
    },
    // two writes of computed values: each is reported
    {
      code: lines(
        PRISMA,
        'async function transfer(from, to, amount) {',
        '  const a = await prisma.account.findUnique({ where: { id: from } });',
        '  const b = await prisma.account.findUnique({ where: { id: to } });',
        '  await prisma.account.update({ where: { id: from }, data: { balance: a.balance - amount } });',
        '  await prisma.account.update({ where: { id: to }, data: { balance: b.balance + amount } });',
        '}',
      ),
      errors: [
        { messageId: 'prisma', line: 6, column: 24 },
        { messageId: 'prisma', line: 7, column: 24 },
      ],
    },
  ],
});

/** The findings `detect` hands to the codemod, through ESLint's Linter. */
function findings(code: string, filename = 'x.ts'): Finding<string, ReadThenWriteFacts>[] {
  const found: Finding<string, ReadThenWriteFacts>[] = [];
  const linter = new Linter({ configType: 'flat' });
  const plugin = {
    rules: { probe: { meta: noReadThenWrite.meta, create: (context: never) => noReadThenWrite.detect(context, (f) => found.push(f)) } },
  };
  const messages = linter.verify(
    code,
    [
      {
        files: ['**/*.ts', '**/*.js'],
        languageOptions: { parser: tsParser as never },
        plugins: { t: plugin as never },
        rules: { 't/probe': 'error' },
      },
    ],
    filename,
  );
  expect(messages.filter((m) => m.fatal || m.ruleId === null)).toEqual([]);
  return found;
}

const source = (code: string, node: { range: [number, number] } | null | undefined): string | undefined =>
  node ? code.slice(...node.range) : undefined;

describe('facts for the atomic-counters codemod', () => {
  test('raw SQL: library, read and write calls, column, `x - n`, and the bound check', () => {
    const code = lines(
      PG,
      'async function withdraw(id: string, amount: number) {',
      "  const { rows } = await pool.query('SELECT balance FROM accounts WHERE id = $1', [id]);",
      "  if (rows[0].balance < amount) throw new Error('insufficient funds');",
      "  await pool.query('UPDATE accounts SET balance = $1 WHERE id = $2', [rows[0].balance - amount, id]);",
      '}',
    );
    const [finding, ...rest] = findings(code);
    expect(rest).toEqual([]);
    const facts = finding!.facts;
    expect(facts.library).toBe('sql');
    expect(source(code, facts.read)).toBe("pool.query('SELECT balance FROM accounts WHERE id = $1', [id])");
    expect(source(code, facts.write)).toBe("pool.query('UPDATE accounts SET balance = $1 WHERE id = $2', [rows[0].balance - amount, id])");
    expect(facts.model).toBe('accounts');
    expect(facts.fields).toEqual(['balance']);
    expect(facts.operator).toBe('-');
    expect(facts.operand).toBe('amount');
    expect(facts.guarded).toBe(true);
    expect(source(code, facts.boundCheck)).toBe("if (rows[0].balance < amount) throw new Error('insufficient funds');");
    expect(source(code, facts.changes[0]?.node)).toBe('rows[0].balance - amount');
  });

  test('TypeORM `entity.count++` then save: `+ 1`, unguarded, the whole chain as the write', () => {
    const code = lines(
      TYPEORM,
      'async function view(repo, id: number) {',
      '  const post = await repo.findOneBy({ id });',
      '  post.views++;',
      '  await repo.save(post);',
      '}',
    );
    const facts = findings(code)[0]!.facts;
    expect(facts).toMatchObject({ library: 'typeorm', fields: ['views'], operator: '+', operand: '1', guarded: false, boundCheck: null });
    expect(source(code, facts.read)).toBe('repo.findOneBy({ id })');
    expect(source(code, facts.write)).toBe('repo.save(post)');
    expect(source(code, facts.changes[0]?.node)).toBe('post.views++');
  });

  test('Prisma `+=` with an operand, a guard that wraps the write, and a Drizzle chain', () => {
    const prisma = lines(
      PRISMA,
      'async function take(id: string, qty: number) {',
      '  const item = await prisma.item.findUnique({ where: { id } });',
      '  let stock = item.stock;',
      '  stock -= qty * 2;',
      '  if (item.stock >= qty) {',
      '    await prisma.item.update({ where: { id }, data: { stock } });',
      '  }',
      '}',
    );
    const facts = findings(prisma)[0]!.facts;
    expect(facts).toMatchObject({ library: 'prisma', model: 'item', fields: ['stock'], operator: '-', operand: 'qty * 2', guarded: true });

    const drizzle = lines(
      DRIZZLE,
      'async function f(db, id: string) {',
      '  const [row] = await db.select().from(accounts).where(eq(accounts.id, id));',
      '  await db.update(accounts).set({ balance: row.balance * 1.1 }).where(eq(accounts.id, id));',
      '}',
    );
    const d = findings(drizzle)[0]!.facts;
    expect(d).toMatchObject({ library: 'drizzle', model: 'accounts', fields: ['balance'], operator: null, operand: null });
    expect(source(drizzle, d.write)).toBe('db.update(accounts).set({ balance: row.balance * 1.1 }).where(eq(accounts.id, id))');
  });

  test('several fields of one entity are one finding with every change', () => {
    const code = lines(
      MONGOOSE,
      'async function f(id: string, n: number) {',
      '  const doc = await Stats.findById(id);',
      '  doc.hits += n;',
      '  doc.misses = doc.misses + 1;',
      '  await doc.save();',
      '}',
    );
    const [finding, ...rest] = findings(code);
    expect(rest).toEqual([]);
    expect(finding!.facts.fields).toEqual(['hits', 'misses']);
    expect(finding!.facts.changes.map((c) => [c.operator, c.operand])).toEqual([
      ['+', 'n'],
      ['+', '1'],
    ]);
  });
});

test('never throws on real library code', async () => {
  const { readdirSync, readFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const roots = [
    'node_modules/knex/lib/query',
    'node_modules/knex/lib/schema',
    'node_modules/typeorm/repository',
    'node_modules/typeorm/entity-manager',
  ];
  let linted = 0;
  for (const root of roots) {
    for (const name of readdirSync(root)) {
      if (!name.endsWith('.js')) continue;
      findings(readFileSync(join(root, name), 'utf8'), 'lib.js');
      linted++;
    }
  }
  expect(linted).toBeGreaterThan(10);
});
