// no-unguarded-schedule on timers whose holder the file shows: the renewal armed by the function
// that takes a lock, a loop its instance stops through a flag (`if (!this.loop) break;`), work over
// the users connected to this process's sockets, temporary files compared by age with a date package, a
// timer its own work clears once one command is served, and a script in a `scripts/` folder.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');
const IMPORT = "import { claimPeriod } from 'replica-guard';";
const settings = { 'replica-guard': { service: 'svc' } };
const reported = (line: number, column: number, output?: string) => ({
  messageId: 'unguardedSchedule' as const,
  line,
  column,
  suggestions: output === undefined ? [] : [{ messageId: 'addClaimPeriod' as const, output }],
});

/** A lock module whose `taker(name)` inserts the lock row, then keeps `refresh` running under the lock's name. */
const lockModule = (taker: string) =>
  lines(
    'export function locks(self) {',
    '  return {',
    `    async ${taker}(name) {`,
    '      await self.db.insertOne({ _id: name, when: Date.now() });',
    '      self.intervals[name] = setInterval(refresh, 1000);',
    '      async function refresh() {',
    '        await self.db.updateOne({ _id: name }, { $set: { when: Date.now() } });',
    '      }',
    '    },',
    '  };',
    '}',
  );

ruleTester.run('no-unguarded-schedule: the renewal armed by the function taking a lock', noUnguardedSchedule, {
  valid: [
    { settings, code: lockModule('lock') },
    { settings, code: lockModule('acquireLock') },
  ],
  invalid: [
    // a function named for something else: the timer is work of its own
    { settings, code: lockModule('publish'), errors: [reported(5, 42)] },
  ],
});

/** A scheduler object whose `start()` runs a loop pausing a second, and leaving at `exit`. */
const loopRunner = (exit: string) =>
  lines(
    'export const jobScheduler = {',
    '  start() {',
    '    this.loop = (async () => {',
    '      while (true) {',
    '        const rows = await this.db.query("UPDATE digests SET sent = true WHERE due < now() RETURNING id");',
    '        await new Promise((resolve) => setTimeout(resolve, 1000));',
    `        ${exit}`,
    '      }',
    '    })();',
    '  },',
    '};',
  );

ruleTester.run('no-unguarded-schedule: a loop its instance stops through a flag', noUnguardedSchedule, {
  valid: [
    // a page read that ends when a page comes back empty: bounded, not a schedule
    { settings, code: loopRunner('if (!rows.length) break;') },
  ],
  invalid: [
    // `stop()` clears `this.loop`; the loop checks it after each pause: the same loop as `while (this.loop)`
    { settings, code: loopRunner('if (!this.loop) break;'), errors: [reported(4, 7)] },
    { settings, code: loopRunner('if (this.stopped) { break; }'), errors: [reported(4, 7)] },
  ],
});

/** A `@Cron` job that removes files of `folder` (`SHARE_DIRECTORY/<share>/<file>`) older than a day. */
const fileSweep = (folder: string) =>
  lines(
    "import { Cron } from '@nestjs/schedule';",
    "import * as fs from 'fs';",
    "import * as moment from 'moment';",
    "import { SHARE_DIRECTORY } from '../constants';",
    'export class JobsService {',
    "  @Cron('0 0 * * *')",
    '  deleteOldFiles() {',
    '    for (const share of fs.readdirSync(SHARE_DIRECTORY)) {',
    `      const ${folder} = fs.readdirSync(\`\${SHARE_DIRECTORY}/\${share}\`).filter((f) => f.endsWith('.part'));`,
    `      for (const file of ${folder}) {`,
    '        const stats = fs.statSync(`${SHARE_DIRECTORY}/${share}/${file}`);',
    "        if (moment(stats.mtime).add(1, 'day').isBefore(moment())) fs.rmSync(`${SHARE_DIRECTORY}/${share}/${file}`);",
    '      }',
    '    }',
    '  }',
    '}',
  );

ruleTester.run('no-unguarded-schedule: temporary files aged with a date package', noUnguardedSchedule, {
  valid: [{ settings, code: fileSweep('temporaryFiles') }],
  invalid: [
    // the shares' own files: a shared volume's
    {
      settings,
      code: fileSweep('sharedFiles'),
      errors: [
        reported(
          6,
          3,
          fileSweep('sharedFiles')
            .replace("'../constants';", `'../constants';\n${IMPORT}`)
            .replace(
              '  deleteOldFiles() {',
              "  async deleteOldFiles() {\n    if (!(await claimPeriod('svc:delete-old-files', { cron: '0 0 * * *' }))) return;",
            ),
        ),
      ],
    },
  ],
});

/** A `@Cron` job writing `lastSeen` for the users `source` returns. */
const lastSeen = (source: string) =>
  lines(
    "import { Cron } from '@nestjs/schedule';",
    'export class CronService {',
    "  @Cron('*/10 * * * * *')",
    '  async updateLastSeen() {',
    `    const users = ${source};`,
    '    await this.prisma.user.updateMany({ where: { id: { in: users } }, data: { lastSeen: new Date() } });',
    '  }',
    '}',
  );

ruleTester.run('no-unguarded-schedule: work over the users connected to this process', noUnguardedSchedule, {
  valid: [
    { settings, code: lastSeen('this.socketService.getAllConnectedUsers()') },
    { settings, code: lastSeen('this.gateway.connectedUserIds()') },
  ],
  invalid: [
    // users read from the database: every replica writes them all
    {
      settings,
      code: lastSeen('await this.userService.getActiveUsers()'),
      errors: [
        reported(
          3,
          3,
          lastSeen('await this.userService.getActiveUsers()')
            .replace("'@nestjs/schedule';", `'@nestjs/schedule';\n${IMPORT}`)
            .replace(
              '  async updateLastSeen() {',
              "  async updateLastSeen() {\n    if (!(await claimPeriod('svc:update-last-seen', { cron: '*/10 * * * * *' }))) return;",
            ),
        ),
      ],
    },
  ],
});

/** A bot command arming an animation whose tick edits the reply; `end` is what the tick does when the game is over. */
const command = (end: string) =>
  lines(
    'module.exports = {',
    "  description: 'a game',",
    '  callback: async (message) => {',
    '    let round = 0;',
    '    const ticker = setInterval(() => {',
    '      round++;',
    '      message.channel.send(`round ${round}`).then(() => {',
    `        if (round > 5) ${end}`,
    '      });',
    '    }, 2000);',
    '  },',
    '};',
  );

ruleTester.run('no-unguarded-schedule: a timer its own work clears once one command is served', noUnguardedSchedule, {
  valid: [{ settings, code: command('clearInterval(ticker);') }],
  invalid: [
    // never cleared: it runs for the process
    {
      settings,
      code: command("message.channel.send('game over');"),
      errors: [
        reported(
          5,
          32,
          `${IMPORT}\n${command("message.channel.send('game over');").replace(
            'setInterval(() => {',
            "setInterval(async () => {\n      if (!(await claimPeriod('svc:ticker', 2000))) return;",
          )}`,
        ),
      ],
    },
  ],
});

const SIMULATOR = lines(
  "import mqtt from 'mqtt';",
  "const client = mqtt.connect('mqtt://localhost');",
  'setInterval(() => {',
  "  client.publish('vitals', JSON.stringify({ hr: 70 }), { qos: 1 });",
  '}, 2000);',
);

ruleTester.run('no-unguarded-schedule: a script in the scripts folder', noUnguardedSchedule, {
  valid: [
    { settings, code: SIMULATOR, filename: 'scripts/simulator.ts' },
    { settings, code: SIMULATOR, filename: 'packages/ingest/scripts/load-test.ts' },
  ],
  invalid: [
    // named for a process that keeps running; the service's own scripts folder
    ...[
      ['scripts/vitals-cron.ts', 'vitals-cron-3'],
      ['src/scripts/simulator.ts', 'simulator-3'],
    ].map(([filename, job]) => ({
      settings,
      code: SIMULATOR,
      filename,
      errors: [
        reported(
          3,
          13,
          SIMULATOR.replace("'mqtt';", `'mqtt';\n${IMPORT}`).replace(
            'setInterval(() => {',
            `setInterval(async () => {\n  if (!(await claimPeriod('svc:${job}', 2000))) return;`,
          ),
        ),
      ],
    })),
  ],
});

/** A staleness check every ten seconds; `act` is what it does when the server ingested nothing for too long. */
const watchdog = (act: string) =>
  lines(
    "import { killProcess } from '../utils/kill';",
    'export function watch(hub) {',
    '  setInterval(async () => {',
    '    if (Date.now() - hub.lastActivity > 60_000) {',
    "      await hub.db.query('UPDATE alerts SET count = count + 1');",
    `      ${act}`,
    '    }',
    '  }, 10_000);',
    '}',
  );

ruleTester.run('no-unguarded-schedule: a watchdog ending this process', noUnguardedSchedule, {
  valid: [
    { settings, code: watchdog('killProcess();') },
    { settings, code: watchdog('process.exit(1);') },
    { settings, code: watchdog('globalThis.process.kill(globalThis.process.pid);') },
  ],
  invalid: [
    // an exit on failure: the job stops, it watches nothing; no exit: the alert is counted on every replica
    ...['try { await hub.sync(); } catch (e) { process.exit(1); }', "console.warn('stale');"].map((act) => ({
      settings,
      code: watchdog(act),
      errors: [
        reported(
          3,
          15,
          watchdog(act)
            .replace("'../utils/kill';", `'../utils/kill';\n${IMPORT}`)
            .replace('setInterval(async () => {', "setInterval(async () => {\n    if (!(await claimPeriod('svc:file-3', 10_000))) return;"),
        ),
      ],
    })),
  ],
});
