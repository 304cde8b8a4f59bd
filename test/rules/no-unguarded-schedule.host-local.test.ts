// no-unguarded-schedule on declared jobs whose work stays on this host: it reads (an HTTP GET, a
// database find) and keeps the answer in its own fields, module variables or Maps, or deletes
// files under the app's cache or temporary directory; and a timer that paces an in-process queue
// its module fills. Each is quiet; its twin that writes (a POST, a database update), deletes
// outside a cache directory, calls a package nothing is known about, or drains a queue it does
// not own is reported.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'market' } };
const IMPORT = "import { claimPeriod } from 'replica-guard';";
const guard = (job: string, cron: string) => `if (!(await claimPeriod('market:${job}', { cron: '${cron}' }))) return;`;

/** A singleton that loads quotes over HTTP (`options` is fetch's second argument) into its own Map. */
const quotes = (options: string) =>
  lines(
    "import { scheduleJob } from 'node-schedule';",
    'class Quotes {',
    '  private latest = new Map<string, number>();',
    '  async loadQuotes() {',
    `    const res = await fetch('https://quotes.example.com/latest'${options});`,
    '    const body = await res.json();',
    '    for (const [symbol, price] of Object.entries(body)) this.latest.set(symbol, Number(price));',
    "    console.info('quotes', this.latest.size);",
    '  }',
    '}',
    'const quotes = new Quotes();',
    "scheduleJob('quotes', '*/5 * * * *', async () => { await quotes.loadQuotes(); });",
  );
/** The one suggestion: the import after line `importAfter` (0-based), the guard inserted as line `at` of `code`, indented by `indent`. */
const withGuard = (code: string, importAfter: number, at: number, indent: string, statement: string) => {
  const out = code.split('\n');
  out.splice(at, 0, `${indent}${statement}`);
  out.splice(importAfter + 1, 0, IMPORT);
  return [{ messageId: 'addClaimPeriod' as const, output: lines(...out) }];
};
/** The suggestion for the `quotes` job: the guard first in its one-line callback. */
const quotesFixed = (code: string) => {
  const out = code.replace('async () => { await', `async () => { ${guard('quotes', '*/5 * * * *')} await`).split('\n');
  out.splice(1, 0, IMPORT);
  return [{ messageId: 'addClaimPeriod' as const, output: lines(...out) }];
};
/**
 * An invalid case whose job is its last line, a one-line callback `async () => { … }`: reported at
 * `column` of that line; the suggestion imports the guard after the other imports and puts it first.
 */
const oneLineJob = (code: string[], column: number, job: string, cron: string, filename?: string) => {
  const imports = code.filter((l) => l.startsWith('import ')).length;
  const fixed = [...code];
  fixed[fixed.length - 1] = fixed[fixed.length - 1]!.replace('async () => { ', `async () => { ${guard(job, cron)} `);
  fixed.splice(imports, 0, IMPORT);
  return {
    settings,
    code: lines(...code),
    ...(filename ? { filename } : {}),
    errors: [
      {
        messageId: 'unguardedSchedule' as const,
        line: code.length,
        column,
        suggestions: [{ messageId: 'addClaimPeriod' as const, output: lines(...fixed) }],
      },
    ],
  };
};
/** A module-level price list loaded from the database; `then` runs after the read. */
const plans = (then: string[]) =>
  lines(
    "import cron from 'node-cron';",
    "import { db } from './db';",
    'let byId = new Map();',
    "cron.schedule('0 * * * *', async () => {",
    '  const rows = await db.plan.findMany({ where: { active: true } });',
    '  byId = new Map(rows.map((row) => [row.id, row]));',
    ...then,
    '});',
  );
/** Removes expired files under `dir` (an expression of the module's `root`). */
const sweepFiles = (root: string) =>
  lines(
    "import { readdir, rm, stat } from 'node:fs/promises';",
    "import { tmpdir } from 'node:os';",
    "import { join } from 'node:path';",
    "import { CronJob } from 'cron';",
    `const root = ${root};`,
    "export const sweeper = new CronJob('0 * * * *', async () => {",
    '  for (const name of await readdir(root)) {',
    '    const file = join(root, name);',
    '    if ((await stat(file)).mtimeMs < Date.now() - 3_600_000) await rm(file, { force: true });',
    '  }',
    '});',
    'sweeper.start();',
  );
/** A throttle: callers push calls onto `pending`, a timer runs one per tick. */
const throttle = (pending: string) =>
  lines(
    'export function throttle(task, perSecond) {',
    `  const pending = ${pending};`,
    '  let timer;',
    '  const drain = () => {',
    '    timer = undefined;',
    '    const next = pending.shift();',
    '    if (!next) return;',
    '    task(...next.args).then(next.resolve, next.reject);',
    '    timer = setTimeout(drain, 1000 / perSecond);',
    '  };',
    '  return (...args) =>',
    '    new Promise((resolve, reject) => {',
    '      pending.push({ args, resolve, reject });',
    '      if (!timer) drain();',
    '    });',
    '}',
  );

/** A job that builds a client of the stock service (`new InventoryClient(…)`) and then runs `use` with it. */
const stockLevels = (...use: string[]) =>
  lines(
    "import { scheduleJob } from 'node-schedule';",
    "import { InventoryClient } from './inventory-client';",
    'const levels = new Map<string, number>();',
    "scheduleJob('stock-levels', '*/10 * * * *', async () => {",
    "  const client = new InventoryClient({ region: 'eu' });",
    ...use,
    '});',
  );
/** `stockLevels(…use)` reported at its callback, the guard suggested as the callback's first statement. */
const stockLevelsReported = (...use: string[]) => {
  const code = stockLevels(...use);
  return {
    settings,
    code,
    errors: [
      {
        messageId: 'unguardedSchedule' as const,
        line: 4,
        column: 45,
        suggestions: withGuard(code, 1, 4, '  ', guard('stock-levels', '*/10 * * * *')),
      },
    ],
  };
};

ruleTester.run('no-unguarded-schedule (host-local work)', noUnguardedSchedule, {
  valid: [
    // 1. A GET into the singleton's own Map.
    { settings, code: quotes('') },
    { settings, code: quotes(", { headers: { accept: 'application/json' }, method: 'GET' }") },
    // 2. A database read into a module variable, and a log line.
    { settings, code: plans(["  console.log('plans', byId.size);"]) },
    // 3. Expired files under the temporary directory.
    { settings, code: sweepFiles("join(tmpdir(), 'thumbnails')") },
    { settings, code: sweepFiles("process.env.CACHE_DIR ?? '/var/lib/app/cache/renders'") },
    // Expired files of this host's own export or uploads directory: the pod's disk, each replica's own.
    { settings, code: sweepFiles("join(process.env.DATA_DIR ?? '/data', 'exports')") },
    {
      settings,
      code: sweepFiles("path.resolve('uploads')").replace("import { join } from 'node:path';", "import path, { join } from 'node:path';"),
    },
    // 4. A throttle draining the queue its callers fill.
    { settings, code: throttle('[]'), filename: 'throttle.ts' },
    // 5. A client built for the job and only read through, its answer kept in the module's Map.
    {
      settings,
      code: stockLevels('  const rows = await client.listLevels();', '  for (const row of rows) levels.set(row.sku, row.count);'),
    },
    { settings, code: stockLevels("  levels.set('eu', await client.stock.get('eu'));") },
  ],
  invalid: [
    // 1. A POST changes something on the other side.
    {
      settings,
      code: quotes(", { method: 'POST' }"),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 12,
          column: 38,
          suggestions: quotesFixed(quotes(", { method: 'POST' }")),
        },
      ],
    },
    // A GET of this service's own path, or of a URL named for a job, runs work there.
    oneLineJob(
      ["import cron from 'node-cron';", "cron.schedule('0 12 * * *', async () => { await fetch('/api/reports/noon'); });"],
      29,
      'noon-2',
      '0 12 * * *',
      'noon.ts',
    ),
    oneLineJob(
      [
        "import cron from 'node-cron';",
        "import axios from 'axios';",
        "cron.schedule('0 12 * * *', async () => { await axios.get(`${process.env.APP_URL}/cron/digest`); });",
      ],
      29,
      'noon-3',
      '0 12 * * *',
      'noon.ts',
    ),
    // A method read from a variable may be anything.
    {
      settings,
      code: quotes(', { method: verb }'),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 12,
          column: 38,
          suggestions: quotesFixed(quotes(', { method: verb }')),
        },
      ],
    },
    // With reportAll, every unguarded schedule.
    {
      settings,
      options: [{ reportAll: true }],
      code: quotes(''),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 12,
          column: 38,
          suggestions: quotesFixed(quotes('')),
        },
      ],
    },
    // A read-named method of a package's object that is not a client: not followed, so unknown.
    oneLineJob(
      [
        "import { scheduleJob } from 'node-schedule';",
        "import { feeds } from '@acme/feeds';",
        "scheduleJob('feeds', '*/5 * * * *', async () => { await feeds.fetchFeeds(); });",
      ],
      37,
      'feeds',
      '*/5 * * * *',
    ),
    // 2. The read is followed by a write.
    {
      settings,
      code: plans(['  await db.plan.updateMany({ where: { active: false }, data: { listed: false } });']),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 4,
          column: 28,
          suggestions: withGuard(
            plans(['  await db.plan.updateMany({ where: { active: false }, data: { listed: false } });']),
            1,
            4,
            '  ',
            guard('file-4', '0 * * * *'),
          ),
        },
      ],
    },
    // 3. Files under a directory every replica mounts (a share, NFS): not this host's own.
    {
      settings,
      code: sweepFiles("join(process.env.SHARED_DIR ?? '/mnt/shared', 'exports')"),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 6,
          column: 49,
          suggestions: withGuard(
            sweepFiles("join(process.env.SHARED_DIR ?? '/mnt/shared', 'exports')"),
            3,
            6,
            '  ',
            guard('sweeper', '0 * * * *'),
          ),
        },
      ],
    },
    {
      settings,
      code: sweepFiles("'/mnt/nfs/exports'"),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 6,
          column: 49,
          suggestions: withGuard(sweepFiles("'/mnt/nfs/exports'"), 3, 6, '  ', guard('sweeper', '0 * * * *')),
        },
      ],
    },
    // 4. A queue this module does not fill: the timer runs the backlog on every replica.
    {
      settings,
      code: throttle('loadBacklog()'),
      filename: 'throttle.ts',
      errors: [{ messageId: 'unguardedSchedule', line: 9, column: 24, suggestions: [] }],
    },
    // 5. The same client written through, or handed to other code: its use is not known to stay here.
    stockLevelsReported('  const rows = await client.listLevels();', '  await client.reserveAll(rows);'),
    stockLevelsReported('  const shared = client;', "  levels.set('eu', await shared.stock.get('eu'));"),
  ],
});
