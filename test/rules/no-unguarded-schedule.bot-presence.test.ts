// no-unguarded-schedule on a job that only sets the chat bot's own presence (`client.user.setPresence(…)`,
// `bot.user.setActivity(…)`), also through a function of the file: each process's connection shows its own,
// nothing shared is written — quiet. The same method on a receiver not named for the bot's client, or a
// shared write beside it: reported.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'helper' } };
/** A CommonJS module of a Node service: `require` and `module` are the runtime's. */
const languageOptions = { globals: { require: 'readonly' as const, module: 'readonly' as const } };

/** A bot's ready handler starting a cron job that shows its server count through `showCount`, whose body is `body`. */
const ready = (...body: string[]) =>
  lines(
    "const cron = require('cron');",
    "const { Tally } = require('./models');",
    'module.exports = async (bot) => {',
    "  const counter = new cron.CronJob('*/15 * * * *', async () => {",
    '    await showCount(bot);',
    '  });',
    '  counter.start();',
    '};',
    'async function showCount(bot) {',
    ...body,
    '}',
  );
/** Reported at the job's work (no suggestion in a CommonJS module). */
const readyReport = (code: string) => ({
  settings,
  languageOptions,
  code,
  errors: [{ messageId: 'unguardedSchedule' as const, line: 4, column: 52, suggestions: [] }],
});

ruleTester.run('no-unguarded-schedule (the bot sets its own presence)', noUnguardedSchedule, {
  valid: [
    {
      settings,
      languageOptions,
      code: ready("  await bot.user.setPresence({ status: 'online', activities: [{ name: `${bot.guilds.cache.size} servers` }] });"),
    },
    { settings, languageOptions, code: ready('  bot.user.setActivity(`watching ${bot.guilds.cache.size} servers`);') },
    {
      settings,
      code: lines(
        "import { Client } from 'discord.js';",
        'export class Presence {',
        '  constructor(private readonly client: Client) {}',
        '  start() {',
        "    setInterval(() => this.client.user?.setActivity('open for tickets'), 10 * 60_000);",
        '  }',
        '}',
      ),
    },
  ],
  invalid: [
    // a shared write beside it
    readyReport(
      ready(
        '  await Tally.updateOne({ key: "servers" }, { $set: { count: bot.guilds.cache.size } });',
        '  bot.user.setActivity(`watching ${bot.guilds.cache.size} servers`);',
      ),
    ),
    // not the bot's own user: a member's, read from a model
    readyReport(ready("  const member = await Tally.findOne({ key: 'owner' });", "  await member.user.setPresence({ status: 'idle' });")),
  ],
});
