// no-unguarded-schedule on what a process keeps to itself, and on locks that only look shared:
// - a message to this process's own threads (`parentPort.postMessage({ cmd: 'heartbeat' })` in a
//   worker thread, `postMessage(worker, …)` from the main thread of a file using `worker_threads`).
//   Twins: Slack's `chat.postMessage` in a file without threads, and a thread file whose timer
//   also writes rows.
// - a write by its name to an in-memory structure of the file (`callQueue.delete(id)` on a
//   `new Map()`). Twin: the same name on a queue client.
// - a timer calling the method that set it (`this.scheduleNextCollection()`): its name is not a
//   write, but a name that says "this instance" (`this.setPingTimer()`) still counts. Twin: that
//   method deletes rows before setting the timer again.
// - a lock of an in-process package (async-mutex's `mutex.runExclusive(…)`, `mutex.isLocked()`):
//   it keeps one process's ticks apart, never two replicas'. Twin: a lock of the project's own module.
// - Redis's writing commands (`redis.srem(key, member)`) are shared writes. Twin: a hash entry
//   keyed by this host's name.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { lines, REQUIRE, suggested } from './schedule-suggestion.js';

const settings = { 'replica-guard': { service: 'mail' } };

const threadHeartbeatAndPurge = [
  "const { parentPort } = require('worker_threads');",
  "const { pool } = require('./db');",
  'setInterval(async () => {',
  "  parentPort.postMessage({ cmd: 'heartbeat' });",
  "  await pool.query('DELETE FROM outbox WHERE sent_at < now() - interval \\'7 days\\'');",
  '}, 10_000);',
];
const slackDigest = [
  "import { WebClient } from '@slack/web-api';",
  'const slack = new WebClient(process.env.SLACK_TOKEN);',
  'setInterval(async () => {',
  "  await slack.chat.postMessage({ channel: '#ops', text: 'daily digest' });",
  '}, 86_400_000);',
];
const brokerQueue = [
  "import { connect } from './broker';",
  'const jobQueue = connect();',
  'setInterval(async () => {',
  "  jobQueue.delete('expired');",
  '}, 60_000);',
];
const rescheduleAfterDelete = [
  "import { pool } from './db';",
  'export class SessionSweeper {',
  '  async scheduleNextSweep() {',
  "    await pool.query('DELETE FROM sessions WHERE expires_at < now()');",
  '    setTimeout(() => this.scheduleNextSweep(), 60_000);',
  '  }',
  '}',
];
const mutexCron = [
  "import { Injectable } from '@nestjs/common';",
  "import { Cron } from '@nestjs/schedule';",
  "import { Mutex } from 'async-mutex';",
  "import { PayoutRepository } from './payout.repository';",
  '@Injectable()',
  'export class PayoutJob {',
  '  private readonly mutex = new Mutex();',
  '  constructor(private readonly payouts: PayoutRepository) {}',
  "  @Cron('*/30 * * * * *')",
  '  sendPayouts() {',
  '    if (this.mutex.isLocked()) return;',
  '    void this.mutex.runExclusive(async () => {',
  '      for (const payout of await this.payouts.findDue()) await this.payouts.markSent(payout.id);',
  '    });',
  '  }',
  '}',
];
const mutexTimer = [
  "const { Mutex, withTimeout } = require('async-mutex');",
  "const { pool } = require('./db');",
  'const scanners = { billing: { mutex: withTimeout(new Mutex(), 5_000) } };',
  'setInterval(async () => {',
  '  if (scanners.billing.mutex.isLocked()) return;',
  '  const release = await scanners.billing.mutex.acquire();',
  '  try {',
  "    await pool.query('UPDATE invoices SET overdue = true WHERE due_at < now()');",
  '  } finally {',
  '    release();',
  '  }',
  '}, 60_000);',
];
const mutexPerChain = [
  "import { Cron } from '@nestjs/schedule';",
  "import { Mutex } from 'async-mutex';",
  "import { LedgerRepository } from './ledger.repository';",
  'export class LedgerJob {',
  '  private readonly locks: Record<string, Mutex> = {};',
  '  constructor(private readonly ledger: LedgerRepository) {}',
  "  @Cron('0 * * * * *')",
  '  async bookAll() {',
  "    for (const chain of ['eth', 'arb']) {",
  '      if (!this.locks[chain]) this.locks[chain] = new Mutex();',
  '      const mutex = this.locks[chain];',
  '      if (mutex.isLocked()) return;',
  '      await mutex.runExclusive(() => this.ledger.book(chain));',
  '    }',
  '  }',
  '}',
];
const staleExports = [
  "import { Redis } from 'ioredis';",
  'const redis = new Redis();',
  'setInterval(async () => {',
  "  for (const entry of await redis.smembers('exports:active')) {",
  "    if (!(await redis.exists(`export:${entry}`))) await redis.srem('exports:active', entry);",
  '  }',
  '}, 300_000);',
];

ruleTester.run('no-unguarded-schedule (own threads, in-memory receivers, in-process locks)', noUnguardedSchedule, {
  valid: [
    // A worker thread's heartbeat to the thread that started it.
    {
      settings,
      code: lines(
        "const { parentPort } = require('worker_threads');",
        'setInterval(() => {',
        '  try {',
        "    parentPort.postMessage({ cmd: 'heartbeat' });",
        '  } catch {',
        '    // the main thread is shutting down',
        '  }',
        '}, 10_000).unref();',
      ),
    },
    // The main thread asks its own workers for counts through its own wrapper of `worker.postMessage`.
    {
      settings,
      code: lines(
        "import { Worker } from 'node:worker_threads';",
        'const workers = new Set<Worker>();',
        'const counts = new Map<number, number>();',
        'function postMessage(worker: Worker, payload: unknown) {',
        '  worker.postMessage(payload);',
        '}',
        'function ask(worker: Worker, cmd: string) {',
        '  return new Promise((resolve) => {',
        "    worker.once('message', resolve);",
        '    postMessage(worker, { cmd });',
        '  });',
        '}',
        'async function collectCounts() {',
        "  for (const worker of workers) counts.set(worker.threadId, Number(await ask(worker, 'count')));",
        '}',
        'setInterval(() => {',
        '  collectCounts().catch(() => undefined);',
        '}, 5_000);',
      ),
    },
    // A rate kept in a Map whose name ends in "queue": this process's memory.
    {
      settings,
      code: lines(
        "import { fetchRates } from './rates';",
        'const pendingQueue = new Map<string, number>();',
        'setInterval(async () => {',
        '  const rates = await fetchRates();',
        "  pendingQueue.set('usd', rates.usd);",
        '}, 60_000);',
      ),
    },
    // A collector of this process's threads, setting its next run from the method that set this one.
    {
      settings,
      code: lines(
        'export class ThreadStatsCollector {',
        '  private timer?: NodeJS.Timeout;',
        '  private cached: unknown[] = [];',
        '  constructor(private readonly threads: () => Array<{ threadId: number }>) {}',
        '  scheduleNextCollection() {',
        '    clearTimeout(this.timer);',
        '    this.timer = setTimeout(() => {',
        '      this.cached = this.threads().map((t) => ({ id: t.threadId, at: Date.now() }));',
        '      this.scheduleNextCollection();',
        '    }, 15_000);',
        '  }',
        '}',
      ),
    },
    // A client's ping timer, set again from its own work: it pings this process's connection.
    {
      settings,
      code: lines(
        'export class Connection {',
        '  setPingTimer() {',
        '    clearTimeout(this.pingTimer);',
        '    this.pingTimer = setTimeout(() => {',
        "      this.sendCommand(['PING']).finally(() => this.setPingTimer());",
        '    }, 5_000);',
        '  }',
        '}',
      ),
    },
    // A lock of the project's own module is taken for what it says.
    {
      settings,
      code: lines(
        "import { Cron } from '@nestjs/schedule';",
        "import { Mutex } from './distributed-mutex';",
        "import { PayoutRepository } from './payout.repository';",
        'export class PayoutJob {',
        "  private readonly mutex = new Mutex('payouts');",
        '  constructor(private readonly payouts: PayoutRepository) {}',
        "  @Cron('*/30 * * * * *')",
        '  async sendPayouts() {',
        '    await this.mutex.runExclusive(async () => {',
        '      for (const payout of await this.payouts.findDue()) await this.payouts.markSent(payout.id);',
        '    });',
        '  }',
        '}',
      ),
    },
    // This host's own entry of a shared hash.
    {
      settings,
      code: lines(
        "import os from 'node:os';",
        "import { Redis } from 'ioredis';",
        'const redis = new Redis();',
        'setInterval(async () => {',
        "  await redis.hset('workers:seen', os.hostname(), String(Date.now()));",
        '}, 30_000);',
      ),
    },
  ],
  invalid: [
    {
      settings,
      code: lines(...threadHeartbeatAndPurge),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 3,
          column: 13,
          suggestions: suggested(threadHeartbeatAndPurge, 1, 3, "  if (!(await claimPeriod('mail:file-3', 10_000))) return;", REQUIRE),
        },
      ],
    },
    {
      settings,
      code: lines(...slackDigest),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 3,
          column: 13,
          suggestions: suggested(slackDigest, 0, 3, "  if (!(await claimPeriod('mail:file-3', 86_400_000))) return;"),
        },
      ],
    },
    {
      settings,
      code: lines(...brokerQueue),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 3,
          column: 13,
          suggestions: suggested(brokerQueue, 0, 3, "  if (!(await claimPeriod('mail:file-3', 60_000))) return;"),
        },
      ],
    },
    {
      settings,
      code: lines(...rescheduleAfterDelete),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 5,
          column: 16,
          suggestions: suggested(
            rescheduleAfterDelete,
            0,
            3,
            "    if (!(await claimPeriod('mail:schedule-next-sweep', 60_000))) { setTimeout(() => this.scheduleNextSweep(), 60_000); return; }",
          ),
        },
      ],
    },
    {
      settings,
      code: lines(...mutexCron),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 9,
          column: 3,
          suggestions: [
            {
              messageId: 'addClaimPeriod',
              output: lines(
                ...mutexCron.slice(0, 4),
                "import { claimPeriod } from 'replica-guard';",
                ...mutexCron.slice(4, 9),
                '  async sendPayouts() {',
                "    if (!(await claimPeriod('mail:send-payouts', { cron: '*/30 * * * * *' }))) return;",
                ...mutexCron.slice(10),
              ),
            },
          ],
        },
      ],
    },
    {
      settings,
      code: lines(...mutexTimer),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 4,
          column: 13,
          suggestions: suggested(mutexTimer, 1, 4, "  if (!(await claimPeriod('mail:file-4', 60_000))) return;", REQUIRE),
        },
      ],
    },
    {
      settings,
      code: lines(...mutexPerChain),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 7,
          column: 3,
          suggestions: suggested(mutexPerChain, 2, 8, "    if (!(await claimPeriod('mail:book-all', { cron: '0 * * * * *' }))) return;"),
        },
      ],
    },
    {
      settings,
      code: lines(...staleExports),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 3,
          column: 13,
          suggestions: suggested(staleExports, 0, 3, "  if (!(await claimPeriod('mail:file-3', 300_000))) return;"),
        },
      ],
    },
  ],
});
