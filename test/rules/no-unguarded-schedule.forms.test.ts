// no-unguarded-schedule on scheduler forms and work names met in services: cron's object form
// (`new CronJob({ cronTime, onTick })`) and its `cron.job(…)` factory, set-interval-async's
// `setIntervalAsync` (and its `/dynamic` entry point), and work named for idle or stale things
// that are shared rows (`cleanupStaleSessions`, `closeIdleRooms`). Each is reported; the same forms
// guarded, over this process's memory, or dropping this process's own idle connections or locks
// are not. `clear` followed by an age (`clearExpiredTokens`) deletes rows past their time; `clear`
// of a cache, of timers or of connections stays in the process.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'shop' } };
const IMPORT = "import { claimPeriod } from 'replica-guard';";

/**
 * A case reported at `line`/`column` whose suggestion adds the import after the file's first
 * `imports` lines and `guard` (with its indentation) after line `after` of the original code.
 */
const reported = (code: string, line: number, column: number, imports: number, after: number, guard: string) => {
  const out = code.split('\n');
  out.splice(after, 0, guard);
  out.splice(imports, 0, IMPORT);
  return {
    settings,
    code,
    errors: [
      {
        messageId: 'unguardedSchedule' as const,
        line,
        column,
        suggestions: [{ messageId: 'addClaimPeriod' as const, output: lines(...out) }],
      },
    ],
  };
};

const cronObject = lines(
  "import { CronJob } from 'cron';",
  "import { Coupon } from './models/coupon';",
  'new CronJob({',
  "  cronTime: '0 */6 * * *',",
  '  onTick: async () => {',
  '    await Coupon.updateMany({ expiresAt: { $lt: new Date() } }, { $set: { active: false } });',
  '  },',
  '  start: true,',
  '});',
);
const cronJobFactory = lines(
  "import cron from 'cron';",
  "import { Coupon } from './models/coupon';",
  "cron.job('0 */6 * * *', async () => {",
  '  await Coupon.deleteMany({ expiresAt: { $lt: new Date() } });',
  '}).start();',
);
const intervalAsync = lines(
  "import { setIntervalAsync } from 'set-interval-async';",
  "import { prisma } from './db';",
  'setIntervalAsync(async () => {',
  '  await prisma.reminder.updateMany({ where: { dueAt: { lt: new Date() }, sent: false }, data: { sent: true } });',
  '}, 30_000);',
);
const intervalAsyncDynamic = lines(
  "import { setIntervalAsync } from 'set-interval-async/dynamic';",
  "import { pool } from './pool';",
  'setIntervalAsync(async () => {',
  "  await pool.query('DELETE FROM carts WHERE updated_at < now() - interval \\'1 day\\'');",
  '}, 60_000);',
);
const staleSessions = lines(
  "import { Injectable } from '@nestjs/common';",
  "import { Cron } from '@nestjs/schedule';",
  "import { PrismaService } from './prisma.service';",
  '@Injectable()',
  'export class SessionJanitor {',
  '  constructor(private readonly prisma: PrismaService) {}',
  "  @Cron('0 * * * *')",
  '  async cleanupStaleSessions() {',
  '    await this.prisma.session.deleteMany({ where: { lastSeenAt: { lt: new Date(Date.now() - 86_400_000) } } });',
  '  }',
  '}',
);
const idleRooms = lines(
  "import { Model } from 'mongoose';",
  'export class RoomService {',
  '  constructor(private readonly rooms: Model<Room>) {}',
  '  start() {',
  '    setInterval(() => this.closeIdleRooms(), 300_000);',
  '  }',
  '  async closeIdleRooms() {',
  '    await this.rooms.updateMany({ lastMessageAt: { $lt: new Date(Date.now() - 3_600_000) } }, { $set: { open: false } });',
  '  }',
  '}',
);

const expiredTokens = lines(
  "import { Tokens } from './data/tokens';",
  'export function startBackgroundTasks() {',
  '  const tokens = new Tokens();',
  '  setInterval(async () => {',
  '    await tokens.clearExpiredTokens();',
  '  }, 60_000);',
  '}',
);
const oldRows = lines(
  "import { getInvitesRepository } from './data/invites';",
  'export async function runInviteLoop() {',
  '  await getInvitesRepository().clearOldExpiredInvites();',
  '  setTimeout(() => runInviteLoop(), 900_000);',
  '}',
);
// Disarming this process's timers first is bookkeeping: the loop still deletes shared rows.
const disarmedTimers = lines(
  "import { prisma } from './db';",
  'const timers = new Map<number, ReturnType<typeof setTimeout>>();',
  'export async function runReminderLoop() {',
  '  for (const timer of timers.values()) clearTimeout(timer);',
  '  timers.forEach((timer) => clearTimeout(timer));',
  '  await prisma.reminder.deleteMany({ where: { sentAt: { not: null } } });',
  '  setTimeout(() => runReminderLoop(), 900_000);',
  '}',
);
// A POST for this process's own credentials (a token, a login) signs this replica in; a POST elsewhere writes.
const postTo = (path: string) =>
  lines(
    "const API = 'https://api.example.com';",
    "let token = '';",
    'setInterval(async () => {',
    `  const response = await fetch(\`\${API}${path}\`, { method: 'POST' });`,
    '  token = await response.text();',
    '}, 3_000_000);',
  );

ruleTester.run('no-unguarded-schedule (scheduler forms and stale names)', noUnguardedSchedule, {
  valid: [
    // The object form, guarded.
    {
      settings,
      code: lines(
        "import { CronJob } from 'cron';",
        IMPORT,
        "import { Coupon } from './models/coupon';",
        'new CronJob({',
        "  cronTime: '0 */6 * * *',",
        '  onTick: async () => {',
        "    if (!(await claimPeriod('shop:coupons', { cron: '0 */6 * * *' }))) return;",
        '    await Coupon.deleteMany({ expiresAt: { $lt: new Date() } });',
        '  },',
        '});',
      ),
    },
    // setIntervalAsync over this process's own map.
    {
      settings,
      code: lines(
        "import { setIntervalAsync } from 'set-interval-async';",
        'const seen = new Map<string, number>();',
        'setIntervalAsync(async () => {',
        '  for (const [key, at] of seen) if (at < Date.now() - 60_000) seen.delete(key);',
        '}, 60_000);',
      ),
    },
    // Dropping this process's own idle connections or stale locks, by name alone.
    { settings, code: lines('export function start(pool: Pool) {', '  setInterval(() => pool.closeIdle(), 30_000);', '}') },
    { settings, code: lines('export function start(tasks: TaskStore) {', '  setInterval(() => tasks.cleanStaleLocks(), 30_000);', '}') },
    { settings, code: postTo('/oauth/token') },
    { settings, code: postTo('/users/@me/tokens?scope=read') },
    {
      settings,
      code: lines("import axios from 'axios';", "setInterval(() => axios.post('https://auth.example.com/login', creds), 600_000);"),
    },
    // `clear` without an age, or of what this process holds.
    { settings, code: lines('export function start(tokens: TokenStore) {', '  setInterval(() => tokens.clearAll(), 30_000);', '}') },
    {
      settings,
      code: lines('export function start(tokens: TokenStore) {', '  setInterval(() => tokens.clearExpiredCache(), 30_000);', '}'),
    },
    { settings, code: lines('export function start(pool: Pool) {', '  setInterval(() => pool.clearStaleConnections(), 30_000);', '}') },
  ],
  invalid: [
    reported(cronObject, 3, 1, 2, 5, "    if (!(await claimPeriod('shop:file-3', { cron: '0 */6 * * *' }))) return;"),
    reported(cronJobFactory, 3, 25, 2, 3, "  if (!(await claimPeriod('shop:file-3', { cron: '0 */6 * * *' }))) return;"),
    reported(intervalAsync, 3, 18, 2, 3, "  if (!(await claimPeriod('shop:file-3', 30_000))) return;"),
    reported(intervalAsyncDynamic, 3, 18, 2, 3, "  if (!(await claimPeriod('shop:file-3', 60_000))) return;"),
    reported(staleSessions, 7, 3, 3, 8, "    if (!(await claimPeriod('shop:cleanup-stale-sessions', { cron: '0 * * * *' }))) return;"),
    reported(idleRooms, 5, 17, 1, 7, "    if (!(await claimPeriod('shop:close-idle-rooms', 300_000))) return;"),
    reported(expiredTokens, 4, 15, 1, 4, "    if (!(await claimPeriod('shop:file-4', 60_000))) return;"),
    // The loop keeps its next run armed when another replica holds this one.
    reported(
      oldRows,
      4,
      14,
      1,
      2,
      "  if (!(await claimPeriod('shop:run-invite-loop', 900_000))) { setTimeout(() => runInviteLoop(), 900_000); return; }",
    ),
    reported(postTo('/orders/sync'), 3, 13, 0, 3, "  if (!(await claimPeriod('shop:file-3', 3_000_000))) return;"),
    reported(
      disarmedTimers,
      7,
      14,
      1,
      3,
      "  if (!(await claimPeriod('shop:run-reminder-loop', 900_000))) { setTimeout(() => runReminderLoop(), 900_000); return; }",
    ),
  ],
});
