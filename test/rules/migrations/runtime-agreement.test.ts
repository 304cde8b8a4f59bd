// The lint rules and the runtime must mean the same thing by "the migrate URL" and "a pooler
// URL": `migrate-entrypoint` tells users to connect with the variable `runMigrations` reads, and
// flags exactly the URLs `runMigrations` would refuse as PgBouncer's.
import { describe, expect, test } from 'vitest';
import { MIGRATE_URL_VARIABLE as RUNTIME_MIGRATE_URL_VARIABLE } from '../../../src/migrations/run-migrations.js';
import { poolerUrlReason } from '../../../src/migrations/pooler-url.js';
import { MIGRATE_URL_VARIABLE, isPoolerUrlLiteral, wrongMigrateUrlVariable } from '../../../src/knowledge/migrate-urls.js';

describe('knowledge and runtime agree', () => {
  test('on the migrate URL variable', () => {
    expect(MIGRATE_URL_VARIABLE).toBe(RUNTIME_MIGRATE_URL_VARIABLE);
    expect(wrongMigrateUrlVariable(RUNTIME_MIGRATE_URL_VARIABLE)).toBeUndefined();
  });

  const urls = [
    'postgres://app:secret@db.internal:5432/orders',
    'postgres://app:secret@db.internal:6432/orders',
    'postgresql://app@pgbouncer.svc:5432/orders',
    'postgres://app@orders-pooler.example.com/orders',
    'postgres://app@supavisor.local:5432/orders',
    'postgres://app@pgcat:5433/orders',
    'postgres://app@odyssey-proxy/orders',
    'postgres://app@db.internal/orders',
    'postgresql://localhost:6433/orders',
    'postgres://bouncer.internal:5432/x',
  ];
  test.each(urls)('on whether %s points at a pooler (by host or by port)', (url) => {
    expect(isPoolerUrlLiteral(url)).toBe(poolerUrlReason(new URL(url)) !== undefined);
  });

  test('the set covers both answers', () => {
    const answers = new Set(urls.map((url) => isPoolerUrlLiteral(url)));
    expect(answers).toEqual(new Set([true, false]));
  });
});
