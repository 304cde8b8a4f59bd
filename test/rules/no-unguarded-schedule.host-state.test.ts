// no-unguarded-schedule on work that stays with this host or this process, each with a twin that is reported:
// - files of this host's disk (an uploads sweep, its referenced paths read through an Objection model's
//   `query().select(…)`). Twin: the model's rows deleted.
// - a cache refreshed from an API through a function of another module named for a computation
//   (`convertRatesToList(price)`), and observable helpers (`lastValueFrom(this.http.get(url))`) around a GET.
//   Twins: the answer handed to `storePrices(price)`, a POST inside `lastValueFrom`.
// - Redis read commands (`smembers`) into this process's Set. Twin: `srem` on the same key.
// - a task broadcast to this process's Piscina threads (also a scoped fork of the package). Twin: the
//   same call on a pool of a project module.
// - a liveness beacon (`kvSet('svc:worker:ping', now)`). Twin: a key named for anything else.
// - job records whose every `function:` is a once-only wrapper's call (`guards.runOnlyOnce(fn, name)`), read
//   back as `job.function`. Twins: a plain function there, lodash's `once(fn)` (once per process).
// - a timer re-armed per call on the object the call is about (`game.turnTimer = setTimeout(…)`, cleared
//   there first). Twin: the same handle never cleared first.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { lines, suggested } from './schedule-suggestion.js';

const settings = { 'replica-guard': { service: 'svc' } };

/** A sweep of the uploads directory: files no row references and older than a day are removed; `extra` runs first. */
const uploadsSweep = (extra: string) =>
  lines(
    "import fs from 'fs-extra';",
    "import path from 'node:path';",
    "import { FileStorage } from '../models';",
    'const uploadsDir = path.resolve(process.env.UPLOADS_DIR || "uploads");',
    'const sweep = async () => {',
    extra,
    "  const rows = await FileStorage.query().select('path');",
    '  const referenced = new Set(rows.map((r) => r.path));',
    '  for (const name of await fs.readdir(uploadsDir)) {',
    '    const file = path.join(uploadsDir, name);',
    '    if (!referenced.has(file)) await fs.remove(file);',
    '  }',
    '};',
    'setInterval(sweep, 3_600_000);',
  );

/** A NestJS service refreshing its in-memory price cache every 10 s; `store` is what it does with the price. */
const priceCache = (store: string) =>
  lines(
    "import { Interval } from '@nestjs/schedule';",
    "import { LRUCache } from 'lru-cache';",
    "import { convertRatesToList, storePrices } from './utils';",
    'export class PriceService {',
    '  private cache = new LRUCache({ max: 1 });',
    '  constructor(private readonly api: PriceApi) {}',
    '  @Interval(10_000)',
    '  async updatePrice() {',
    "    const price = await this.api.getPrice({ fsyms: 'BTC' });",
    `    ${store}`,
    '  }',
    '}',
  );

/** A config reloaded every minute from a key-value store over HTTP into the instance's fields. */
const configReload = (request: string) =>
  lines(
    "import { schedule } from 'node-cron';",
    "import { lastValueFrom } from 'rxjs';",
    'export class ConsulConfig {',
    '  configs = {};',
    '  constructor(http) {',
    '    this.http = http;',
    "    schedule('* * * * *', async () => this.update());",
    '  }',
    '  async update() {',
    `    const { data } = await lastValueFrom(${request});`,
    '    this.configs.app = data;',
    '  }',
    '}',
  );

/** A cron job mirroring Redis's `online` set into this process's Set; `extra` runs for each member. */
const onlineMirror = (extra: string) =>
  lines(
    "import cron from 'node-cron';",
    "import { redis } from './redis';",
    'const online = new Set();',
    "cron.schedule('* * * * *', async () => {",
    '  online.clear();',
    "  for (const id of await redis.smembers('online')) {",
    '    online.add(id);',
    `    ${extra}`,
    '  }',
    '});',
  );

/** A node-schedule job broadcasting a reload to a pool of threads made by `poolImport`. */
const threadReload = (poolImport: string) =>
  lines(
    "import * as schedule from 'node-schedule';",
    poolImport,
    'const pool = new Piscina({ filename: "./worker.js" });',
    "schedule.scheduleJob('*/5 * * * *', async () => {",
    "  await pool.broadcastTask({ task: 'reloadAllActions' });",
    '});',
  );

/** A node-schedule job writing `key` with the time, every 5 seconds. */
const beacon = (key: string) =>
  lines(
    "import * as schedule from 'node-schedule';",
    "import { hub } from './hub';",
    "schedule.scheduleJob('*/5 * * * * *', async () => {",
    `  await hub.db.kvSet('${key}', new Date().toISOString(), 60);`,
    '});',
  );

/** Job records (`{ name, function }`) scheduled by name; `fn` is each record's function. */
const jobRecords = (fn: string, imports = "import createRunGuards from './run-guards';") =>
  lines(
    "import { scheduleJob } from 'node-schedule';",
    imports,
    'export default function createScheduler(lockClient, notifications) {',
    '  const guards = createRunGuards(lockClient);',
    `  const jobs = [{ name: 'reminders', function: ${fn} }];`,
    '  function activate(job) {',
    "    return scheduleJob(job.name, '0 9 * * *', job.function);",
    '  }',
    '  return { start: () => jobs.map(activate) };',
    '}',
  );

const ORPHAN_DELETE = "  await pool.query('DELETE FROM file_storage WHERE orphan = true');";
const CONFIG_POST = 'this.http.post(`${this.url}/config`, this.configs)';
const SREM = "await redis.srem('online', id);";
const PROJECT_POOL = "import { Piscina } from './pool';";

ruleTester.run('no-unguarded-schedule: work that stays with this host or process', noUnguardedSchedule, {
  valid: [
    { settings, code: uploadsSweep('') },
    { settings, code: priceCache("this.cache.set('price', convertRatesToList(price));"), filename: 'price.service.ts' },
    { settings, code: configReload('this.http.get(`${this.url}/config?recurse`)') },
    { settings, code: onlineMirror('') },
    { settings, code: threadReload("import Piscina from 'piscina';") },
    { settings, code: threadReload("import Piscina from '@acme/piscina';") },
    { settings, code: beacon('svc:worker:ping') },
    { settings, code: beacon('svc:heartbeat') },
    { settings, code: jobRecords("guards.runOnlyOnce(notifications.reminders, 'reminders', 60_000)") },
  ],
  invalid: [
    {
      settings,
      code: uploadsSweep(ORPHAN_DELETE),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 14,
          column: 13,
          suggestions: suggested(
            uploadsSweep(ORPHAN_DELETE).split('\n'),
            2,
            5,
            "  if (!(await claimPeriod('svc:sweep', 3_600_000))) return;",
          ),
        },
      ],
    },
    {
      settings,
      code: priceCache('await storePrices(price);'),
      filename: 'price.service.ts',
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 7,
          column: 3,
          suggestions: suggested(
            priceCache('await storePrices(price);').split('\n'),
            2,
            8,
            "    if (!(await claimPeriod('svc:update-price', 10_000))) return;",
          ),
        },
      ],
    },
    {
      settings,
      code: configReload(CONFIG_POST),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 7,
          column: 27,
          suggestions: suggested(
            configReload(CONFIG_POST).split('\n'),
            1,
            9,
            "    if (!(await claimPeriod('svc:update', { cron: '* * * * *' }))) return;",
          ),
        },
      ],
    },
    {
      settings,
      code: onlineMirror(SREM),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 4,
          column: 28,
          suggestions: suggested(
            onlineMirror(SREM).split('\n'),
            1,
            4,
            "  if (!(await claimPeriod('svc:file-4', { cron: '* * * * *' }))) return;",
          ),
        },
      ],
    },
    {
      settings,
      code: threadReload(PROJECT_POOL),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 4,
          column: 37,
          suggestions: suggested(
            threadReload(PROJECT_POOL).split('\n'),
            1,
            4,
            "  if (!(await claimPeriod('svc:file-4', { cron: '*/5 * * * *' }))) return;",
          ),
        },
      ],
    },
    {
      settings,
      code: beacon('@svc/server/last-digest'),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 3,
          column: 39,
          suggestions: suggested(
            beacon('@svc/server/last-digest').split('\n'),
            1,
            3,
            "  if (!(await claimPeriod('svc:file-3', { cron: '*/5 * * * * *' }))) return;",
          ),
        },
      ],
    },
    {
      settings,
      code: jobRecords('notifications.reminders'),
      errors: [{ messageId: 'unguardedSchedule', line: 7, column: 47, suggestions: [] }],
    },
    {
      settings,
      code: jobRecords('once(notifications.reminders)', "import once from 'lodash/once';"),
      errors: [{ messageId: 'unguardedSchedule', line: 7, column: 47, suggestions: [] }],
    },
  ],
});

/** A turn timer kept on the game the call is about, re-armed by each call; `clearFirst` clears the last one first. */
const turnTimer = (clearFirst: boolean) =>
  lines(
    "import { db } from './db';",
    'export function armTurn(game) {',
    clearFirst ? '  if (game.turnTimer) clearTimeout(game.turnTimer);' : '  game.turns += 1;',
    '  game.turnTimer = setTimeout(async () => {',
    "    await db.query('UPDATE games SET turn = turn + 1 WHERE id = $1', [game.id]);",
    '    armTurn(game);',
    '  }, 60_000);',
    '}',
  );

ruleTester.run('no-unguarded-schedule: a timer re-armed per call on the object the call is about', noUnguardedSchedule, {
  valid: [{ settings, code: turnTimer(true) }],
  invalid: [
    // Kept on the parameter but never cleared first: nothing says it is that object's one timer.
    { settings, code: turnTimer(false), errors: [{ messageId: 'unguardedSchedule', line: 4, column: 31, suggestions: [] }] },
  ],
});
