import { inject, expect, test } from 'vitest';
import pg from 'pg';
import { Redis } from 'ioredis';

test('the harness starts a real redis-server', async () => {
  const redis = new Redis(inject('redisUrl'));
  try {
    expect(await redis.ping()).toBe('PONG');
    const info = await redis.info('server');
    expect(info).toMatch(/redis_version:/);
  } finally {
    redis.disconnect();
  }
});

test('the harness starts PostgreSQL and PgBouncer in transaction pooling mode', async () => {
  const direct = new pg.Client({ connectionString: inject('postgresUrl') });
  await direct.connect();
  const { rows } = await direct.query<{ v: string }>('select current_setting($$server_version_num$$) as v');
  expect(rows[0]?.v).toMatch(/^\d+/);
  await direct.end();

  const admin = new pg.Client({ connectionString: inject('pgbouncerUrl').replace(/\/postgres$/, '/pgbouncer') });
  await admin.connect();
  const config = await admin.query({ text: 'SHOW CONFIG', rowMode: 'array' });
  await admin.end();
  const mode = config.rows.find((row: unknown[]) => row[0] === 'pool_mode');
  expect(mode?.[1]).toBe('transaction');
});

test('the harness starts nats-server with JetStream enabled', async () => {
  const { connect } = await import('nats');
  const nc = await connect({ servers: inject('natsUrl') });
  try {
    const jsm = await nc.jetstreamManager();
    const account = await jsm.getAccountInfo();
    expect(account.limits).toBeDefined();
  } finally {
    await nc.close();
  }
});
