// no-unguarded-schedule on a cron job that sets a chat client's own presence (`bot.user.setPresence`,
// `.setActivity`): each process's connection shows its own status, so every replica setting it
// writes nothing shared — quiet. The twins: the same job also posting to a channel, or calling a
// `setStatus` of another object than the client's own account, are reported.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');

/** A job every 10 minutes whose helper runs `step` with the client. */
const rotator = (...step: string[]) =>
  lines(
    "import { CronJob } from 'cron';",
    'export function whenOnline(bot) {',
    "  const tally = new CronJob('*/10 * * * *', async () => {",
    '    await showRooms(bot);',
    '  });',
    '  tally.start();',
    '}',
    'async function showRooms(bot) {',
    ...step,
    '}',
  );

ruleTester.run('no-unguarded-schedule: a chat client’s own presence', noUnguardedSchedule, {
  valid: [
    { code: rotator("  await bot.user.setPresence({ status: 'idle', activities: [{ name: `${bot.guilds.cache.size} rooms` }] });") },
    { code: rotator('  bot.user.setActivity(`watching ${bot.guilds.cache.size} rooms`);') },
    {
      code: lines(
        "import cron from 'node-cron';",
        "cron.schedule('0 * * * *', () => {",
        "  gateway.user.setStatus(Math.random() > 0.5 ? 'online' : 'dnd');",
        '});',
      ),
    },
  ],
  invalid: [
    {
      code: rotator(
        "  await bot.user.setPresence({ status: 'idle' });",
        "  await bot.channels.cache.get(process.env.LOBBY).send('rooms counted');",
      ),
      errors: [{ messageId: 'unguardedSchedule', line: 3, column: 45 }],
    },
    {
      code: rotator('  await bot.rooms.setStatus({ open: bot.guilds.cache.size > 0 });'),
      errors: [{ messageId: 'unguardedSchedule', line: 3, column: 45 }],
    },
  ],
});
