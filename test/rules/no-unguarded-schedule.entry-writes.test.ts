// no-unguarded-schedule on a chat system's entries changed in place from a timer: a channel fetched
// from the server (its failure swallowed by `.catch(() => {})`) renamed with the member count every
// ten minutes, a member fetched by id and banned when a stored ban is due. Each replica renames and
// bans again: reported. A room kept in this process's `Map` renamed, or an entry of a cache alone,
// stays in the process.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { guardedReport } from './schedule-report.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'guildbot' } };

/** A counter board: `lookup` gives `board` its entry once, a ten-minute timer renames it. */
const counterBoard = (lookup: string) =>
  lines(
    'const rooms = new Map<string, Room>();',
    'export async function startBoards(client: Client, cache: LruCache) {',
    '  for (const panel of client.settings.panels) {',
    `    const board = ${lookup};`,
    '    if (!board) continue;',
    '    setInterval(async () => {',
    '      const title = `Online: ${client.onlineCount(panel.guildId)}`;',
    '      if (title !== board.name) await board.setName(title);',
    '    }, 10 * 60_000);',
    '  }',
    '}',
  );

const banSweep = lines(
  'export function startBanSweep(client: Client, bans: BanStore) {',
  '  setInterval(async () => {',
  '    for (const due of await bans.dueNow()) {',
  '      const guild = await client.guilds.fetch(due.guildId);',
  '      const member = await guild.members.fetch(due.userId);',
  "      await member.ban({ reason: 'scheduled ban' });",
  '    }',
  '  }, 60_000);',
  '}',
);

ruleTester.run('no-unguarded-schedule: entries of an outside system changed in place', noUnguardedSchedule, {
  valid: [
    { settings, code: counterBoard('rooms.get(panel.channelId)') },
    { settings, code: counterBoard('await cache.fetch(panel.channelId)') },
  ],
  invalid: [
    guardedReport(settings, counterBoard('await client.channels.fetch(panel.channelId).catch(() => {})'), {
      line: 6,
      column: 17,
      guard: "      if (!(await claimPeriod('guildbot:file-6', 10 * 60_000))) return;",
      after: 6,
      importAfter: 0,
    }),
    guardedReport(settings, banSweep, {
      line: 2,
      column: 15,
      guard: "    if (!(await claimPeriod('guildbot:file-2', 60_000))) return;",
      after: 2,
      importAfter: 0,
    }),
  ],
});
