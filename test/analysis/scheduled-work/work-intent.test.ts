// What one call says about scheduled work, from names alone.
import { parse } from '@typescript-eslint/parser';
import type { TSESTree } from '@typescript-eslint/utils';
import { describe, expect, test } from 'vitest';
import { callIntent, isPerReplicaName, telemetryBindings } from '../../../analysis/scheduled-work/work-intent.js';
import { nameWords } from '../../../analysis/ast/name-words.js';

function call(code: string): TSESTree.CallExpression {
  const statement = parse(code).body[0] as TSESTree.ExpressionStatement;
  return statement.expression as TSESTree.CallExpression;
}

describe('callIntent', () => {
  test.each([
    ['acquireLock("k")', 'coordinated'],
    ['tryLock(1)', 'coordinated'],
    ['withLock("k", fn)', 'coordinated'],
    ['locking.acquire("k", 1000)', 'coordinated'],
    ['this.tryAcquireLock(task)', 'coordinated'],
    ['plans.trySetCronTime(schema)', 'coordinated'],
    ['this.acquireLockFor(job)', 'coordinated'],
    ['cluster.isLeaderNode()', 'coordinated'],
    ['this.users.getUsersForLockDashboards()', undefined],
    ['this.getLockKey(job)', undefined],
    ['this.releaseLock()', undefined],
    ['Metrics.gauge("depth", 1)', 'per-replica'],
    ['this.ping()', 'per-replica'],
    ['this.flushAll()', 'per-replica'],
    ['this.cache.reloadCache()', 'per-replica'],
    ['this.renewLease()', 'per-replica'],
    ['repo.save(entity)', 'shared-write'],
    ['query.link.batchRemove({})', 'shared-write'],
    ['this.executions.softDeletePrunableExecutions()', 'shared-write'],
    ['fetch(url, { method: "POST" })', 'shared-write'],
    ['pool.query("UPDATE jobs SET done = true")', 'shared-write'],
    ['this.running.delete(id)', undefined],
    ['strategy.executeTask(task)', undefined],
    ['api.refresh()', undefined],
  ])('%s → %s', (code, intent) => {
    expect(callIntent(call(code), new Set())).toBe(intent);
  });

  test('a call through a telemetry module binding is per-replica', () => {
    const program = parse("import { track } from '@shop/telemetry';\nconst statsd = require('hot-shots');");
    const telemetry = telemetryBindings(program);
    expect([...telemetry].sort()).toEqual(['statsd', 'track']);
    expect(callIntent(call('track("PING")'), telemetry)).toBe('per-replica');
    expect(callIntent(call('statsd.increment("x")'), telemetry)).toBe('per-replica');
  });
});

describe('names', () => {
  test('nameWords splits camelCase, acronyms and snake_case', () => {
    expect(nameWords('tryAcquireLock')).toEqual(['try', 'acquire', 'lock']);
    expect(nameWords('SEND_MAIL')).toEqual(['send', 'mail']);
    expect(nameWords('gaugePerInstance')).toEqual(['gauge', 'per', 'instance']);
  });
  test('per-replica names', () => {
    expect(isPerReplicaName('sendMachineTelemetry')).toBe(true);
    expect(isPerReplicaName('cleanupTempFiles')).toBe(true);
    expect(isPerReplicaName('cleanupStaleConnections')).toBe(true);
    expect(isPerReplicaName('closeIdle')).toBe(true);
    expect(isPerReplicaName('pruneStale')).toBe(true);
    expect(isPerReplicaName('cleanStaleLocksForTask')).toBe(true);
    expect(isPerReplicaName('cleanupStaleSessions')).toBe(false);
    expect(isPerReplicaName('closeIdleRooms')).toBe(false);
    expect(isPerReplicaName('sendInvoices')).toBe(false);
    expect(isPerReplicaName('reloadPrices')).toBe(false);
  });
});
