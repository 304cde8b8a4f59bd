// `no-read-then-write` over Redis, where the read and the write spell one key two ways (a
// template, a concatenation, a `const` declared from either, a helper of the file that builds it)
// or queue the write in a MULTI / pipeline with no WATCH before: MULTI makes the queued commands
// run together, not the value read before them current. Another key built the same ways, and a
// MULTI after WATCH, stay silent.
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');

const IOREDIS = "import Redis from 'ioredis';\nconst redis = new Redis();";
const NODE_REDIS = "import { createClient } from 'redis';\nconst client = createClient();";

const redisAt = (field: string, line: number, column: number) => [{ messageId: 'redis' as const, data: { field }, line, column }];

ruleTester.run('no-read-then-write (Redis keys spelt two ways, MULTI and pipelines)', noReadThenWrite, {
  valid: [
    // another key, though built the same two ways
    lines(
      IOREDIS,
      'export async function mirror(tenant: string) {',
      '  const used = Number(await redis.get(`usage:${tenant}`));',
      "  await redis.set('usage-copy:' + tenant, used + 1);",
      '}',
    ),
    // the same prefix, another id
    lines(
      IOREDIS,
      'export async function carry(from: string, to: string) {',
      "  const left = Number(await redis.get('credits:' + from));",
      '  await redis.set(`credits:${to}`, left - 1);',
      '}',
    ),
    // a helper of the file building another key
    lines(
      IOREDIS,
      'const usageKey = (tenant: string) => `usage:${tenant}`;',
      'const limitKey = (tenant: string) => `limit:${tenant}`;',
      'export async function clamp(tenant: string) {',
      '  const used = Number(await redis.get(usageKey(tenant)));',
      '  await redis.set(limitKey(tenant), used * 2);',
      '}',
    ),
    // WATCH before the read, the write queued in MULTI: EXEC fails when the key changed
    lines(
      IOREDIS,
      'export async function bump(tenant: string) {',
      '  const key = `usage:${tenant}`;',
      '  await redis.watch(key);',
      '  const used = Number(await redis.get(key));',
      '  const tx = redis.multi();',
      '  tx.set(key, used + 1);',
      '  await tx.exec();',
      '}',
    ),
    // a pipeline of commands that do their arithmetic in Redis
    lines(
      IOREDIS,
      'export async function hit(tenant: string) {',
      '  const key = `usage:${tenant}`;',
      '  const seen = await redis.get(key);',
      '  await redis.pipeline().incrby(key, 1).expire(key, 60).exec();',
      '  return seen;',
      '}',
    ),
    // a pipeline on something that is no Redis client
    lines(
      'export async function hit(tenant: string, batch: { pipeline(): any }) {',
      '  const used = Number(await batch.get(`usage:${tenant}`));',
      '  await batch.pipeline().set(`usage:${tenant}`, used + 1).exec();',
      '}',
    ),
  ],
  invalid: [
    // read through a template, written through a concatenation
    {
      code: lines(
        IOREDIS,
        'export async function spend(tenant: string, cost: number) {',
        '  const left = Number(await redis.get(`credits:${tenant}`));',
        "  await redis.set('credits:' + tenant, left - cost);",
        '}',
      ),
      errors: redisAt("'credits:' + tenant", 5, 15),
    },
    // read through a `const` key, written through the template it was declared from
    {
      code: lines(
        NODE_REDIS,
        'export async function spend(tenant: string, cost: number) {',
        '  const key = `credits:${tenant}`;',
        '  const left = Number(await client.get(key));',
        '  await client.set(`credits:${tenant}`, String(left - cost));',
        '}',
      ),
      errors: redisAt('credits:${tenant}', 6, 16),
    },
    // read through a helper of the file that builds the key, written through the template
    {
      code: lines(
        IOREDIS,
        'function creditsKey(tenant: string) {',
        '  return `credits:${tenant}`;',
        '}',
        'export async function spend(account: string, cost: number) {',
        '  const left = Number(await redis.get(creditsKey(account)));',
        '  await redis.set(`credits:${account}`, left - cost);',
        '}',
      ),
      errors: redisAt('credits:${account}', 8, 15),
    },
    // queued in a MULTI without a WATCH: EXEC runs it whatever was written since the read
    {
      code: lines(
        IOREDIS,
        'export async function hit(tenant: string) {',
        '  const key = `usage:${tenant}`;',
        '  const used = Number(await redis.get(key));',
        '  await redis.multi().set(key, used + 1).expire(key, 3600).exec();',
        '}',
      ),
      errors: redisAt('key', 6, 23),
    },
    // queued on a pipeline kept in a name
    {
      code: lines(
        IOREDIS,
        'export async function hit(tenant: string) {',
        '  const key = `usage:${tenant}`;',
        '  const used = Number(await redis.get(key));',
        '  const batch = redis.pipeline();',
        '  batch.set(key, used + 1);',
        '  batch.expire(key, 3600);',
        '  await batch.exec();',
        '}',
      ),
      errors: redisAt('key', 7, 9),
    },
    // node-redis: a hash field written back in a MULTI
    {
      code: lines(
        NODE_REDIS,
        'export async function reserve(sku: string, qty: number) {',
        "  const raw = await client.hGet('stock', sku);",
        "  await client.multi().hSet('stock', sku, String(Number(raw) - qty)).exec();",
        '}',
      ),
      errors: redisAt('sku', 5, 24),
    },
  ],
});
