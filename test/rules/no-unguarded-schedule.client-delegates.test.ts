// no-unguarded-schedule on work that writes through a client's per-model delegate
// (`prisma.invoice.create`, `this.db.users.update`): the write's receiver is the model, the client
// one link up; a bare timer or poll loop writing that way writes shared data on every replica. And
// a URL's host (`url.hostname`, a `hostname` parameter) is not data keyed to this machine.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'billing' } };
const POLL_ERROR = { messageId: 'unguardedSchedule' as const, suggestions: [] };

ruleTester.run('no-unguarded-schedule (client delegates)', noUnguardedSchedule, {
  valid: [
    // Data keyed by this machine: each replica writes its own row.
    {
      settings,
      code: lines(
        "import os from 'node:os';",
        "import { setTimeout as sleep } from 'node:timers/promises';",
        'export async function reportLoad(prisma) {',
        '  while (true) {',
        '    await prisma.nodeLoad.upsert({ where: { host: os.hostname() }, create: { host: os.hostname() }, update: {} });',
        '    await sleep(10_000);',
        '  }',
        '}',
      ),
    },
    // An in-memory map under an object named for no client: this process's own state.
    {
      settings,
      code: lines(
        "import { setTimeout as sleep } from 'node:timers/promises';",
        'export async function evictIdle(registry) {',
        '  while (true) {',
        '    for (const key of registry.idleKeys()) registry.entries.delete(key);',
        '    await sleep(30_000);',
        '  }',
        '}',
      ),
    },
  ],
  invalid: [
    // A helper that checks a URL's host before the write: the host is the URL's, not this machine's.
    {
      settings,
      code: lines(
        "import { setTimeout as sleep } from 'node:timers/promises';",
        "import { prisma } from './prisma';",
        'function isBlockedHost(hostname) {',
        "  return hostname === 'localhost';",
        '}',
        'export async function importFeeds() {',
        '  while (true) {',
        '    for (const feed of await prisma.feed.findMany()) {',
        '      if (isBlockedHost(new URL(feed.url).hostname)) continue;',
        '      await prisma.item.create({ data: { feedId: feed.id } });',
        '    }',
        '    await sleep(60_000);',
        '  }',
        '}',
      ),
      errors: [{ ...POLL_ERROR, line: 7, column: 3 }],
    },
    {
      settings,
      code: lines(
        "import { setTimeout as sleep } from 'node:timers/promises';",
        "import { prisma } from './prisma';",
        'export async function issueInvoices() {',
        '  while (true) {',
        '    const due = await prisma.subscription.findMany({ where: { renewsAt: { lte: new Date() } } });',
        '    for (const subscription of due) await prisma.invoice.create({ data: { subscriptionId: subscription.id } });',
        '    await sleep(60_000);',
        '  }',
        '}',
      ),
      errors: [{ ...POLL_ERROR, line: 4, column: 3, endLine: 4, endColumn: 16 }],
    },
    {
      settings,
      code: lines(
        'export class QuotaReset {',
        '  stopped = false;',
        '  constructor(db) {',
        '    this.db = db;',
        '  }',
        '  async run() {',
        '    while (!this.stopped) {',
        '      await this.db.accounts.update({ where: { plan: "free" }, data: { used: 0 } });',
        '      await new Promise((resolve) => setTimeout(resolve, 3_600_000));',
        '    }',
        '  }',
        '}',
      ),
      errors: [{ ...POLL_ERROR, line: 7, column: 5 }],
    },
  ],
});
