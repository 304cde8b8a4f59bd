// `no-read-then-write` over Redis: a value read from a key, changed in JavaScript and written back
// to the same key (ioredis and node-redis spellings), and the shapes that lose nothing.
import { describe, expect, test } from 'vitest';
import { jsRuleTester, ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';
import { mentionsRedis, mentionsWriteWord, redisWriteCallOffsets } from '../../rules/no-read-then-write/mentions.js';

const lines = (...l: string[]) => l.join('\n');

const IOREDIS = "import Redis from 'ioredis';\nconst redis = new Redis();";
const NODE_REDIS = "import { createClient } from 'redis';\nconst client = createClient();";

ruleTester.run('no-read-then-write (Redis)', noReadThenWrite, {
  valid: [
    // INCRBY does the arithmetic in Redis
    lines(IOREDIS, 'export async function hit(id: string) {', '  await redis.incrby(`quota:${id}`, 1);', '}'),
    // cache-aside: the value written is computed, not derived from the read
    lines(
      IOREDIS,
      'export async function profile(id: string) {',
      '  const key = `profile:${id}`;',
      '  const cached = await redis.get(key);',
      '  if (cached) return JSON.parse(cached);',
      '  const fresh = await loadProfile(id);',
      "  await redis.set(key, JSON.stringify(fresh), 'EX', 60);",
      '  return fresh;',
      '}',
    ),
    // cache-aside on node-redis, the same value written back to refresh its TTL
    lines(
      NODE_REDIS,
      'export async function touch(key: string) {',
      '  const value = await client.get(key);',
      '  if (value !== null) await client.set(key, value, { EX: 60 });',
      '}',
    ),
    // a constant written
    lines(
      IOREDIS,
      'export async function reset(id: string) {',
      '  const n = await redis.get(`quota:${id}`);',
      '  await redis.set(`quota:${id}`, 0);',
      '  return n;',
      '}',
    ),
    // the value derived from one key written to another key
    lines(
      IOREDIS,
      'export async function snapshot(id: string) {',
      '  const n = Number(await redis.get(`quota:${id}`));',
      '  await redis.set(`quota-snapshot:${id}`, n + 1);',
      '}',
    ),
    // another field of the hash
    lines(
      NODE_REDIS,
      'export async function mirror(sku: string, qty: number) {',
      "  const raw = await client.hGet('stock', sku);",
      "  await client.hSet('reserved', sku, String(Number(raw) - qty));",
      '}',
    ),
    // SET … NX: only one caller wins
    lines(
      IOREDIS,
      'export async function claim(key: string) {',
      '  const n = Number(await redis.get(key));',
      "  await redis.set(key, n + 1, 'PX', 1000, 'NX');",
      '}',
    ),
    lines(
      NODE_REDIS,
      'export async function claim(key: string) {',
      '  const n = Number(await client.get(key));',
      '  await client.set(key, String(n + 1), { NX: true });',
      '}',
    ),
    // WATCH … MULTI/EXEC: EXEC fails when the key changed
    lines(
      IOREDIS,
      'export async function bump(key: string) {',
      '  await redis.watch(key);',
      '  const n = Number(await redis.get(key));',
      '  await redis.multi().set(key, n + 1).exec();',
      '}',
    ),
    // under a lock
    lines(
      IOREDIS,
      "import Redlock from 'redlock';",
      'const redlock = new Redlock([redis]);',
      'export async function bump(key: string) {',
      '  await redlock.using([`lock:${key}`], 5000, async () => {',
      '    const n = Number(await redis.get(key));',
      '    await redis.set(key, n + 1);',
      '  });',
      '}',
    ),
    // a lock taken before the read and released after the write
    lines(
      IOREDIS,
      "import Redlock from 'redlock';",
      'const redlock = new Redlock([redis]);',
      'export async function bump(key: string) {',
      '  const lock = await redlock.acquire([`lock:${key}`], 5000);',
      '  try {',
      '    const n = Number(await redis.get(key));',
      '    await redis.set(key, n + 1);',
      '  } finally {',
      '    await lock.release();',
      '  }',
      '}',
    ),
    // only the replica that won the claim goes on
    lines(
      IOREDIS,
      "import { claimOnce } from 'replica-guard';",
      'export async function rollover(day: string) {',
      '  if (!(await claimOnce(`rollover:${day}`, { ttlMs: 60_000 }))) return;',
      "  const total = Number(await redis.get('total'));",
      "  await redis.set('total', total + Number(await redis.get(`day:${day}`)));",
      '}',
    ),
    // the read comes after the write
    lines(
      IOREDIS,
      'export async function write(key: string, n: number) {',
      '  await redis.set(key, n);',
      '  const back = Number(await redis.get(key));',
      '  return back + 1;',
      '}',
    ),
    // a Map is not Redis, even in a file that uses Redis
    lines(
      IOREDIS,
      'const counts = new Map<string, number>();',
      'export async function count(key: string) {',
      '  const n = counts.get(key) ?? 0;',
      '  counts.set(key, n + 1);',
      '  await redis.expire(key, 60);',
      '}',
    ),
    // `cache` without Redis evidence is not a Redis client
    lines(
      'export async function bump(cache, key: string) {',
      '  const n = Number(await cache.get(key));',
      '  await cache.set(key, n + 1);',
      '}',
    ),
    // a generic name in a file that imports no Redis client
    lines(
      "import { client } from '../lib/http';",
      'export async function grant(user: string, n: number) {',
      '  const credits = Number(await client.get(user));',
      '  await client.set(user, credits + n);',
      '}',
    ),
    // a test file
    {
      filename: 'src/__tests__/quota.test.ts',
      code: lines(IOREDIS, 'test("q", async () => {', '  const n = Number(await redis.get("q"));', '  await redis.set("q", n + 1);', '});'),
    },
    // a Lua script does the read and the write on the server
    lines(
      IOREDIS,
      "const SPEND = \"local n = tonumber(redis.call('GET', KEYS[1]) or '0') redis.call('SET', KEYS[1], n - ARGV[1])\";",
      'export async function spend(key: string, amount: number) {',
      '  const before = Number(await redis.get(key));',
      '  await redis.eval(SPEND, 1, key, amount);',
      '  return before;',
      '}',
    ),
    // node-redis's isolated client for WATCH … MULTI
    lines(
      NODE_REDIS,
      'export async function bump(key: string) {',
      '  await client.executeIsolated(async (isolated) => {',
      '    await isolated.watch(key);',
      '    const n = Number(await isolated.get(key));',
      '    await isolated.multi().set(key, String(n + 1)).exec();',
      '  });',
      '}',
    ),
    // a value read from a row and cached: not the key it was read from
    lines(
      IOREDIS,
      "import { PrismaClient } from '@prisma/client';",
      'const prisma = new PrismaClient();',
      'export async function cache(id: string) {',
      '  const user = await prisma.user.findUnique({ where: { id } });',
      '  await redis.set(`user:${id}:credits`, user.credits + 1);',
      '}',
    ),
  ],
  invalid: [
    // ioredis: a counter read, incremented and written back
    {
      code: lines(
        IOREDIS,
        'export async function hit(id: string) {',
        '  const n = Number(await redis.get(`quota:${id}`));',
        '  await redis.set(`quota:${id}`, n + 1);',
        '}',
      ),
      errors: [{ messageId: 'redis', data: { field: 'quota:${id}' }, line: 5, column: 15 }],
    },
    // node-redis: a hash field decremented and written back
    {
      code: lines(
        NODE_REDIS,
        'export async function reserve(sku: string, qty: number) {',
        "  const raw = await client.hGet('stock', sku);",
        "  await client.hSet('stock', sku, String(Number(raw) - qty));",
        '}',
      ),
      errors: [{ messageId: 'redis', data: { field: 'sku' }, line: 5, column: 16 }],
    },
    // ioredis: a JSON value parsed, mutated and stringified back
    {
      code: lines(
        IOREDIS,
        'export async function visit(key: string) {',
        "  const state = JSON.parse((await redis.get(key)) ?? '{}');",
        '  state.count++;',
        '  await redis.set(key, JSON.stringify(state));',
        '}',
      ),
      errors: [{ messageId: 'redis', data: { field: 'key' }, line: 6, column: 15 }],
    },
    // node-redis setEx: a parsed array grown and written back
    {
      code: lines(
        NODE_REDIS,
        'export async function remember(key: string, item: string) {',
        "  const list = JSON.parse((await client.get(key)) ?? '[]');",
        '  list.push(item);',
        '  await client.setEx(key, 3600, JSON.stringify(list));',
        '}',
      ),
      errors: [{ messageId: 'redis', data: { field: 'key' }, line: 6, column: 16 }],
    },
    // a merge of the read object
    {
      code: lines(
        IOREDIS,
        'export async function seen(key: string) {',
        "  const session = JSON.parse((await redis.get(key)) ?? '{}');",
        '  await redis.set(key, JSON.stringify({ ...session, seenAt: Date.now() }));',
        '}',
      ),
      errors: [{ messageId: 'redis', data: { field: 'key' }, line: 5, column: 15 }],
    },
    // hGetAll, then one field written back computed from itself (an injected ioredis client)
    {
      code: lines(
        "import { Injectable } from '@nestjs/common';",
        "import { InjectRedis } from '@nestjs-modules/ioredis';",
        "import type { Redis } from 'ioredis';",
        '@Injectable()',
        'export class Wallets {',
        '  constructor(@InjectRedis() private readonly store: Redis) {}',
        '  async spend(id: string, amount: number) {',
        '    const wallet = await this.store.hgetall(`wallet:${id}`);',
        "    await this.store.hset(`wallet:${id}`, 'balance', Number(wallet.balance) - amount);",
        '  }',
        '}',
      ),
      errors: [{ messageId: 'redis', data: { field: 'balance' }, line: 9, column: 22 }],
    },
    // a client annotated by type, mget then set of one of the keys
    {
      code: lines(
        "import type { RedisClientType } from 'redis';",
        'export async function move(db: RedisClientType, from: string, to: string) {',
        '  const [a] = await db.mGet([from, to]);',
        '  await db.set(from, String(Number(a) - 1));',
        '}',
      ),
      errors: [{ messageId: 'redis', data: { field: 'from' }, line: 4, column: 12 }],
    },
    // `cache` counts in a file that imports a Redis client; a field of the parsed value set
    {
      code: lines(
        "import IORedis from 'ioredis';",
        'export async function markSeen(cache: unknown, key: string) {',
        "  const session = JSON.parse((await cache.get(key)) ?? '{}');",
        '  session.seen = true;',
        '  await cache.set(key, JSON.stringify(session));',
        '}',
      ),
      errors: [{ messageId: 'redis', data: { field: 'key' }, line: 5, column: 15 }],
    },
    // a class field holding the client (`this.redis`), hmset of an object whose field is computed
    {
      code: lines(
        "import Redis from 'ioredis';",
        'export class Limits {',
        '  private conn = new Redis();',
        '  async use(id: string, n: number) {',
        '    const used = await this.conn.hget(`limits:${id}`, "used");',
        '    await this.conn.hmset(`limits:${id}`, { used: Number(used) + n, at: Date.now() });',
        '  }',
        '}',
      ),
      errors: [{ messageId: 'redis', data: { field: 'used' }, line: 6, column: 21 }],
    },
    // a client imported from the project's Redis module
    {
      code: lines(
        "import { client } from '../lib/redis';",
        'export async function grant(user: string, n: number) {',
        '  const credits = Number(await client.hGet(`credits`, user));',
        '  await client.hSet(`credits`, { [user]: credits + n });',
        '}',
      ),
      errors: [{ messageId: 'redis', data: { field: 'user' }, line: 4, column: 16 }],
    },
    // RedisJSON
    {
      code: lines(
        NODE_REDIS,
        'export async function like(key: string) {',
        '  const doc = await client.json.get(key);',
        "  await client.json.set(key, '$', { ...doc, likes: doc.likes + 1 });",
        '}',
      ),
      errors: [{ messageId: 'redis', data: { field: 'key' }, line: 5, column: 21 }],
    },
  ],
});

jsRuleTester.run('no-read-then-write (Redis, JavaScript)', noReadThenWrite, {
  valid: [
    // a read of another key
    lines(
      "const Redis = require('ioredis');",
      'const redis = new Redis();',
      'async function copy(a, b) {',
      '  const n = Number(await redis.get(a));',
      '  await redis.set(b, n + 1);',
      '}',
    ),
  ],
  invalid: [
    {
      code: lines(
        "const Redis = require('ioredis');",
        'const redisClient = new Redis();',
        'async function credit(user, amount) {',
        '  const balance = parseFloat(await redisClient.hget("balances", user));',
        '  await redisClient.hset("balances", user, balance + amount);',
        '}',
      ),
      errors: [{ messageId: 'redis', data: { field: 'user' }, line: 5, column: 21 }],
    },
  ],
});

describe('Redis pre-check', () => {
  const code = 'import Redis from "ioredis";\nconst n = await redis.get(k);\nawait redis.set(k, n + 1);\n';

  test('admits a file that names Redis and calls a Redis read and write', () => {
    expect(mentionsRedis('const r = new Redis();')).toBe(true);
    expect(mentionsWriteWord('const r = new Redis();')).toBe(false);
    expect(redisWriteCallOffsets(code, [])).toEqual([code.indexOf('.set(')]);
    expect(redisWriteCallOffsets("redis['hSet'](h, f, v); await redis.hGet(h, f);", [])).toEqual([5]);
  });

  test('turns away a file without Redis, without a read, or whose calls sit in comments', () => {
    expect(mentionsWriteWord('const m = new Map(); m.get(k); m.set(k, 1);')).toBe(false);
    expect(mentionsRedis('const m = new Map(); m.get(k); m.set(k, 1);')).toBe(false);
    expect(redisWriteCallOffsets('const m = new Map(); m.get(k); m.set(k, 1);', [])).toEqual([]);
    expect(redisWriteCallOffsets('import Redis from "ioredis";\nawait redis.set(k, 1);', [])).toEqual([]);
    const commented = '// redis.get(k) then redis.set(k, n)\nexport const x = 1;';
    expect(redisWriteCallOffsets(commented, [{ type: 'Line', range: [0, commented.indexOf('\n')] }])).toEqual([]);
  });
});
