// no-unguarded-schedule on jobs whose only lasting effect is this process's own, or that claim
// their run first:
// - a cron reloading this instance's fields from reads, its test reading a method of a field that
//   only ever holds a `Date` (`this.loadedAt.toISOString()`);
// - a timer handing an imported function this file's in-memory cache (`new NodeCache()`) to fill;
// - a job publishing this instance's own address (`localIpAddress()`), a registration of itself;
// - a job draining a keyed queue (a `Map` field) that another method fills, one entry per event;
// - a job leaving unless a same-file helper's keyed insert went in (`try { insert; return true }
//   catch { return false }`), through a second helper.
// Each is quiet; each twin — a reload that also writes rows, a database handle handed with the
// cache, an address only logged, a queue filled from a query in a loop, a shared write beside the
// drain, an answer not tested, a helper answering true when the insert failed — is reported.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { guardedReport } from './schedule-report.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'depot' } };

/** A Nest service reloading its tariffs when they changed; `reload` is the reload method's statements. */
const tariffs = (...reload: string[]) =>
  lines(
    "import { Cron } from '@nestjs/schedule';",
    "import type { Repository } from 'typeorm';",
    "import { RatesService, Tariff } from './rates';",
    'export class TariffCache {',
    '  private tariffs: Tariff[] = [];',
    '  private loadedAt: Date | null = null;',
    '  constructor(private readonly tariffRepo: Repository<Tariff>, private readonly ratesService: RatesService) {}',
    "  @Cron('*/30 * * * * *')",
    '  async refreshIfChanged() {',
    '    if (!this.loadedAt) return;',
    "    const changed = await this.tariffRepo.createQueryBuilder('t').where('t.updated_at > :at', { at: this.loadedAt.toISOString() }).getCount();",
    '    if (changed > 0) await this.reloadTariffs();',
    '  }',
    '  async reloadTariffs() {',
    ...reload.map((s) => `    ${s}`),
    '  }',
    '}',
  );
const reloadFields = ['this.tariffs = await this.ratesService.findTariffs();', 'this.loadedAt = new Date();'];

/** A timer handing `refreshQuotes` the arguments `handed`. */
const quotes = (handed: string) =>
  lines(
    "import NodeCache from 'node-cache';",
    "import { refreshQuotes } from './quotes';",
    "import { db } from './db';",
    'const quoteCache = new NodeCache();',
    "const options = { source: 'https://example.org/quotes' };",
    `setInterval(refreshQuotes, 15_000, ${handed});`,
  );

/** A Nest service announcing a payload on a channel every 30 seconds; `payload` is its statements. */
const announcer = (...payload: string[]) =>
  lines(
    "import { Cron } from '@nestjs/schedule';",
    "import type Redis from 'ioredis';",
    "import { localIpAddress } from './net';",
    'export class NodeAnnouncer {',
    '  private readonly logger = console;',
    '  constructor(private readonly redis: Redis) {}',
    "  @Cron('*/30 * * * * *')",
    '  async announce() {',
    '    await this.publishSelf();',
    '  }',
    '  async publishSelf() {',
    ...payload.map((s) => `    ${s}`),
    '  }',
    '}',
  );

/** A refund queue kept in a Map: `fill` is the filling method, `after` what the drain does after its loop. */
const refunds = (fill: string[], after: string[] = []) =>
  lines(
    "import { Cron } from '@nestjs/schedule';",
    "import { OnEvent } from '@nestjs/event-emitter';",
    "import { OrderRepository, Mailer } from './orders';",
    'export class RefundQueue {',
    '  private readonly pending = new Map<string, Date>();',
    '  constructor(private readonly orderRepository: OrderRepository, private readonly mailer: Mailer) {}',
    ...fill.map((s) => `  ${s}`),
    "  @Cron('*/20 * * * * *')",
    '  async drainRefunds() {',
    '    for (const [orderId] of this.pending) {',
    '      this.pending.delete(orderId);',
    '      await this.refund(orderId);',
    '    }',
    ...after.map((s) => `    ${s}`),
    '  }',
    '  private async refund(orderId: string) {',
    '    await this.orderRepository.update({ id: orderId }, { refunded: true });',
    '    await this.mailer.send(orderId);',
    '  }',
    '}',
  );
const fillOnEvent = [
  "@OnEvent('order.cancelled')",
  'onCancelled(event: { orderId: string }) {',
  '  this.pending.set(event.orderId, new Date());',
  '}',
];
const fillFromRows = [
  'async onModuleInit() {',
  '  for (const order of await this.orderRepository.find({ where: { refunded: false } })) this.pending.set(order.id, new Date());',
  '}',
];

/** A weekly report job claiming its run through two helpers; `work` is its try block, `failed` the insert's catch. */
const report = (work: string[], failed = 'return false;') =>
  lines(
    "import { Cron } from '@nestjs/schedule';",
    "import type { Repository } from 'typeorm';",
    "import { JobMark, Mailer } from './marks';",
    'const REPORT_KEY = 7;',
    'export class ReportJobs {',
    '  constructor(private readonly marks: Repository<JobMark>, private readonly mailer: Mailer) {}',
    "  @Cron('0 0 6 * * 1')",
    '  async weeklyReport() {',
    '    try {',
    ...work.map((s) => `      ${s}`),
    '    } catch (e) {',
    '      console.error(e);',
    '    }',
    '  }',
    '  private claimRun(): Promise<boolean> {',
    '    return this.insertMark(REPORT_KEY);',
    '  }',
    '  private async insertMark(key: number): Promise<boolean> {',
    '    try {',
    '      await this.marks.insert({ key });',
    '      return true;',
    '    } catch {',
    `      ${failed}`,
    '    }',
    '  }',
    '}',
  );
const claimedFirst = ['const claimed = await this.claimRun();', 'if (!claimed) return;', 'await this.mailer.sendReport();'];

ruleTester.run('no-unguarded-schedule: this process own work, and runs claimed first', noUnguardedSchedule, {
  valid: [
    { settings, code: tariffs(...reloadFields) },
    { settings, code: quotes('quoteCache, options') },
    {
      settings,
      code: announcer('const ip = localIpAddress();', "await this.redis.publish('nodes', JSON.stringify({ address: `${ip}:8080` }));"),
    },
    { settings, code: refunds(fillOnEvent) },
    { settings, code: report(claimedFirst) },
  ],
  invalid: [
    // the reload also writes the rows back: every replica writes them
    guardedReport(settings, tariffs(...reloadFields, 'await this.tariffRepo.update({ stale: true }, { stale: false });'), {
      line: 8,
      column: 3,
      after: 9,
      importAfter: 3,
      guard: "    if (!(await claimPeriod('depot:refresh-if-changed', { cron: '*/30 * * * * *' }))) return;",
    }),
    // a database handle handed beside the cache: the imported function runs a job per replica
    { settings, code: quotes('quoteCache, db'), errors: [{ messageId: 'unguardedSchedule', line: 6, column: 13 }] },
    // the address only logged: the payload is the same from every replica
    guardedReport(
      settings,
      announcer(
        'this.logger.log(`announcing from ${localIpAddress()}`);',
        "await this.redis.publish('nodes', JSON.stringify({ online: true }));",
      ),
      {
        line: 7,
        column: 3,
        after: 8,
        importAfter: 3,
        guard: "    if (!(await claimPeriod('depot:announce', { cron: '*/30 * * * * *' }))) return;",
      },
    ),
    // the queue filled from a query, row by row: every replica loads the same orders
    guardedReport(settings, refunds(fillFromRows), {
      line: 10,
      column: 3,
      after: 11,
      importAfter: 3,
      guard: "    if (!(await claimPeriod('depot:drain-refunds', { cron: '*/20 * * * * *' }))) return;",
    }),
    // a shared write beside the drain
    guardedReport(settings, refunds(fillOnEvent, ['await this.orderRepository.update({ refunded: true }, { archived: true });']), {
      line: 11,
      column: 3,
      after: 12,
      importAfter: 3,
      guard: "    if (!(await claimPeriod('depot:drain-refunds', { cron: '*/20 * * * * *' }))) return;",
    }),
    // the claim's answer is not tested
    guardedReport(settings, report(['await this.claimRun();', 'await this.mailer.sendReport();']), {
      line: 7,
      column: 3,
      after: 8,
      importAfter: 3,
      guard: "    if (!(await claimPeriod('depot:weekly-report', { cron: '0 0 6 * * 1' }))) return;",
    }),
    // the helper answers true when its insert failed
    guardedReport(settings, report(claimedFirst, 'return true;'), {
      line: 7,
      column: 3,
      after: 8,
      importAfter: 3,
      guard: "    if (!(await claimPeriod('depot:weekly-report', { cron: '0 0 6 * * 1' }))) return;",
    }),
  ],
});
