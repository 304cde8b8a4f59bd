// no-unguarded-schedule on timers an SDK client owns: discord.js v12's `client.setInterval(fn, ms)`
// and a `client.setTimeout` loop are the global timers kept on the client. Work there that posts to
// a channel or writes rows runs once per replica, as under a global `setInterval`. Only a receiver
// the file shows to be a client counts — `new Client(…)`, a `: Client` annotation, or the name a bot
// gives it (`client`, `bot`) in a file that imports the library — never any object with a
// `setInterval` method. In a file that does not import it, only a receiver by such a name that the
// file reads through one of the client's manager caches (`client.channels.cache.get(id)`).
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { guardedReport } from './schedule-report.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'index' } };

const POST = ['  const channel = client.channels.cache.get(STANDUP_CHANNEL);', "  await channel.send('Standup in five minutes!');"];

const madeClient = (receiver: string, ...setup: string[]) =>
  lines(
    "import Discord from 'discord.js';",
    'const client = new Discord.Client();',
    ...setup,
    `${receiver}.setInterval(async () => {`,
    ...POST,
    '}, 86_400_000);',
  );

const annotated = lines(
  "import { Client } from 'discord.js';",
  "import { Reminder } from './models';",
  'export class ReminderSweeper {',
  '  constructor(private readonly discord: Client) {}',
  '  start(): void {',
  '    this.discord.setInterval(async () => {',
  '      await Reminder.deleteMany({ dueAt: { $lt: new Date() } });',
  '    }, 60_000);',
  '  }',
  '}',
);

const loop = (arm: string) =>
  lines(
    "import { Client } from 'discord.js';",
    'const bot = new Client();',
    'async function announceRaffle(): Promise<void> {',
    "  const channel = await bot.channels.fetch('4711');",
    "  await channel.send('The raffle is open!');",
    `  ${arm}`,
    '}',
    "bot.once('ready', () => announceRaffle());",
  );

/** A bot module re-titling each open raffle's message, the message brought by `lookup` and handed to a `.then` callback. */
const retitle = (lookup: string) =>
  lines(
    'exports.run = async (client) => {',
    '  client.setInterval(async () => {',
    "    const channel = client.channels.cache.get('4711');",
    `    await ${lookup}.then((message) => message.edit('Raffle closes soon'));`,
    '  }, 60_000);',
    '};',
  );

ruleTester.run('no-unguarded-schedule (client-owned timers)', noUnguardedSchedule, {
  valid: [
    // Not a client: an object of the project with a timer method of its own.
    { settings, code: madeClient('poller', 'const poller = new Poller();') },
    // No import of the library, and nothing read as the client's: `client` could be anything.
    {
      settings,
      code: lines(
        'export function start(client) {',
        '  client.setInterval(async () => {',
        '    await Reminder.deleteMany({ dueAt: { $lt: new Date() } });',
        '  }, 60_000);',
        '}',
      ),
    },
    // An entry of a cache alone, handed to a `.then` callback: this process's own.
    { settings, code: retitle("cache.fetch('raffle')") },
    // A manager's cache read on another receiver: the timer's `poller` is not shown to be the client.
    {
      settings,
      code: lines(
        'export function start(client, poller) {',
        '  poller.setInterval(async () => {',
        ...POST.map((l) => `  ${l}`),
        '  }, 60_000);',
        '}',
      ),
    },
    // A one-off client.setTimeout is no loop.
    {
      settings,
      code: loop('void 0;').replace(
        "bot.once('ready', () => announceRaffle());",
        "bot.once('ready', () => bot.setTimeout(announceRaffle, 5_000));",
      ),
    },
    // The client's presence, set by each replica alike: no shared effect.
    {
      settings,
      code: lines(
        "const { Client } = require('discord.js');",
        'const client = new Client();',
        "client.setInterval(() => client.user.setActivity('with timers'), 30_000);",
      ),
    },
  ],
  invalid: [
    guardedReport(settings, madeClient('client'), {
      line: 3,
      column: 20,
      guard: "  if (!(await claimPeriod('index:file-3', 86_400_000))) return;",
      after: 3,
      importAfter: 1,
    }),
    guardedReport(settings, annotated, {
      line: 6,
      column: 30,
      guard: "      if (!(await claimPeriod('index:file-6', 60_000))) return;",
      after: 6,
      importAfter: 2,
    }),
    // An unannotated parameter by the name a bot gives its client, in a file that imports the library.
    guardedReport(
      settings,
      lines(
        "import { Collection } from 'discord.js';",
        'export default function registerTimers(client, reminders: Collection<string, number>) {',
        '  client.setInterval(async () => {',
        '    await Reminder.deleteMany({ dueAt: { $lt: new Date() } });',
        '    reminders.clear();',
        '  }, 60_000);',
        '}',
      ),
      { line: 3, column: 22, guard: "    if (!(await claimPeriod('index:file-3', 60_000))) return;", after: 3, importAfter: 1 },
    ),
    // A bot module handed the client by its loader, importing nothing: read through a manager's cache, it is the client.
    guardedReport(
      settings,
      lines('exports.run = async (client) => {', '  client.setInterval(async () => {', ...POST.map((l) => `  ${l}`), '  }, 60_000);', '};'),
      { line: 2, column: 22, guard: "    if (!(await claimPeriod('index:file-2', 60_000))) return;", after: 2, importAfter: 0 },
    ),
    // The message fetched and handed to a `.then` callback: edited on the chat server, once per replica.
    guardedReport(settings, retitle("channel.messages.fetch('99')"), {
      line: 2,
      column: 22,
      guard: "    if (!(await claimPeriod('index:file-2', 60_000))) return;",
      after: 2,
      importAfter: 0,
    }),
    // The same through a command class's `this.client`.
    guardedReport(
      settings,
      lines(
        'module.exports = class PollCloser {',
        '  constructor(client) { this.client = client; }',
        '  start() {',
        '    this.client.setInterval(async () => {',
        "      const guild = this.client.guilds.cache.get('81');",
        '      await Poll.updateMany({ guildId: guild.id, open: true }, { open: false });',
        '    }, 300_000);',
        '  }',
        '};',
      ),
      { line: 4, column: 29, guard: "      if (!(await claimPeriod('index:file-4', 300_000))) return;", after: 4, importAfter: 0 },
    ),
    // A loop re-armed on the client: the losing replica re-arms it before it leaves.
    guardedReport(settings, loop('bot.setTimeout(announceRaffle, 3_600_000);'), {
      line: 6,
      column: 18,
      guard: "  if (!(await claimPeriod('index:announce-raffle', 3_600_000))) { bot.setTimeout(announceRaffle, 3_600_000); return; }",
      after: 3,
      importAfter: 1,
    }),
  ],
});
