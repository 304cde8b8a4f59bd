// Starts one of each real server for the `servers` test project and hands their URLs to the
// tests through vitest's provide/inject. Tests that need to stop a server (outage tests) start
// their own with the functions in ./servers.ts.
import type { TestProject } from 'vitest/node';
import { removeDir, startNats, startPgBouncer, startPostgres, startRedis, type RunningServer } from './servers.js';

declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
    postgresUrl: string;
    pgbouncerUrl: string;
    natsUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const started: RunningServer[] = [];
  try {
    const [redis, postgres, nats] = await Promise.all([startRedis(), startPostgres(), startNats()]);
    started.push(redis, postgres, nats);
    const pgbouncer = await startPgBouncer(postgres);
    started.push(pgbouncer);
    project.provide('redisUrl', redis.url);
    project.provide('postgresUrl', postgres.url);
    project.provide('pgbouncerUrl', pgbouncer.url);
    project.provide('natsUrl', nats.url);
  } catch (error) {
    await teardown(started);
    throw error;
  }
  return () => teardown(started);
}

async function teardown(started: RunningServer[]): Promise<void> {
  // PgBouncer before PostgreSQL, so neither waits on the other.
  for (const server of [...started].reverse()) {
    await server.stop().catch(() => undefined);
    removeDir(server);
  }
}
