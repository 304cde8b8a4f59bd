// no-unguarded-schedule on one-off timers a bot arms at start, one per row its model class reads
// (`const reminders = await Reminder.find({})`, `(await Ban.find({ … })).forEach(…)`): every replica
// reads the same rows and fires each reminder or lifts each ban once per replica. Lifting a
// moderation at its expiry (`guild.members.unban(id)`) is a change on the chat server. Twins stay
// quiet: rows of an array built by a capitalised call that is no model read (`Promise.all([…])`), and
// a timer per row that drops this process's own entry.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { lines } from './schedule-suggestion.js';

const settings = { 'replica-guard': { service: 'bot' } };

/** A ready handler arming one timer per row of `rows`, whose callback runs `statement`. */
const armAtReady = (rows: string, statement: string) => [
  "import type { Client } from 'discord.js';",
  "import { Ban } from '../models/ban';",
  'const lifted = new Map<string, number>();',
  'export async function onReady(client: Client): Promise<void> {',
  `  const bans = ${rows};`,
  '  for (const ban of bans) {',
  '    setTimeout(async () => {',
  `      ${statement}`,
  '    }, ban.expiresAt.getTime() - Date.now());',
  '  }',
  '}',
];
const MODEL_READ = 'await Ban.find({ expiresAt: { $ne: null } })';
const UNBAN = "await client.guilds.cache.get(ban.guildId)?.members.unban(ban.userId, 'temporary ban over');";
const DROP_OWN = 'lifted.delete(ban.userId);';

ruleTester.run('no-unguarded-schedule: timers armed per row a model class reads', noUnguardedSchedule, {
  valid: [
    // rows of a capitalised call that reads no store
    { settings, code: lines(...armAtReady('await Promise.all([loadBan(1), loadBan(2)])', UNBAN)) },
    // one timer per stored row, dropping this process's own entry
    { settings, code: lines(...armAtReady(MODEL_READ, DROP_OWN)) },
  ],
  invalid: [
    // each replica lifts each ban (no suggestion: a claim per row is needed)
    {
      settings,
      code: lines(...armAtReady(MODEL_READ, UNBAN)),
      errors: [{ messageId: 'unguardedSchedule', line: 7, column: 16, suggestions: [] }],
    },
    {
      settings,
      code: lines(...armAtReady('await Ban.findAll()', 'await ban.destroy();')),
      errors: [{ messageId: 'unguardedSchedule', line: 7, column: 16, suggestions: [] }],
    },
  ],
});
