// no-unguarded-schedule on what a handle reaches:
// - an entry looked up by its key in a collection of an outside system
//   (`client.channels.cache.get(id).send(text)`, `(await client.channels.fetch(id)).send(text)`) is a
//   channel whatever the lookup is called: a bot's per-guild timer posting there posts from every
//   replica, also when the entry is kept in a `const` first (`const user = await client.users.fetch(id)`:
//   an awaited fetch brings it from the server). A lookup among this server's own connections
//   (`hub.clients.get(id)`) or in its own memory (`sessions.get(id)`) stays its own.
// - `mysql.createConnection(options)` opens this process's own connection, not a record: a reconnect
//   re-armed from its failure path is per replica; the same loop around `createAccount` writes.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { lines, suggested } from './schedule-suggestion.js';

const settings = { 'replica-guard': { service: 'bot' } };

/** A ready handler arming one hourly timer per guild, whose work ends with `send`. */
const perGuild = (send: string) => [
  "import type { Client } from 'discord.js';",
  'export function onReady(client: Client): void {',
  '  for (const [id] of client.guilds.cache) {',
  '    setInterval(async () => {',
  '      const config = await GuildConfig.findOne({ guild: id });',
  '      if (!config?.digestChannel) return;',
  `      ${send}`,
  '    }, 3_600_000);',
  '  }',
  '}',
];
const cachedChannel = perGuild("client.channels.cache.get(config.digestChannel).send('daily digest');");
/** The same post to one configured channel, armed once: the guard goes first in its work. */
const fetchedChannel = [
  "import type { Client } from 'discord.js';",
  "const DIGEST_CHANNEL = process.env.DIGEST_CHANNEL ?? '';",
  'export function onReady(client: Client): void {',
  '  setInterval(async () => {',
  "    (await client.channels.fetch(DIGEST_CHANNEL)).send('daily digest');",
  '  }, 3_600_000);',
  '}',
];

/** A reminder loop that looks each due row's recipient up, keeps it in a `const`, and sends on it with `send`. */
const dueReminders = (lookUp: string, send: string) => [
  'export function startReminders(client: Client): void {',
  '  setInterval(async () => {',
  '    const due = await Reminder.find({ at: { $lte: new Date() } });',
  '    for (const reminder of due) {',
  `      const recipient = ${lookUp};`,
  `      await ${send}(\`Reminder: \${reminder.text}\`);`,
  '    }',
  '  }, 60_000);',
  '}',
];
const fetchedUser = dueReminders('await client.users.fetch(reminder.userId)', 'recipient.send');
const cachedChannelOptional = dueReminders('client.channels.cache.get(reminder.channelId)', 'recipient?.send');

/** A database class whose failure path re-arms `connect`, which opens the handle with `open`. */
const reconnecting = (open: string) => [
  "import mysql, { type Connection, type ConnectionOptions } from 'mysql2/promise';",
  'export class Database {',
  '  private connection: Connection | null = null;',
  '  constructor(private readonly options: ConnectionOptions) {}',
  '  async connect(): Promise<void> {',
  '    try {',
  `      this.connection = await mysql.${open}(this.options);`,
  '    } catch (error) {',
  '      this.onFatalError(error);',
  '    }',
  '  }',
  '  private onFatalError(error: unknown): void {',
  "    console.error('database lost, reconnecting', error);",
  '    this.connection = null;',
  '    setTimeout(this.connect.bind(this), 5_000);',
  '  }',
  '}',
];

ruleTester.run("no-unguarded-schedule: what this process's handles reach", noUnguardedSchedule, {
  valid: [
    // a lookup among this server's own connections
    { settings, code: lines(...perGuild("hub.clients.get(config.socketId)?.send('digest ready');")) },
    // a reconnect of this process's own connection, re-armed from its failure path
    // an entry of this process's own memory or connections, kept in a `const` first
    { settings, code: lines(...dueReminders('sessions.get(reminder.sessionId)', 'recipient.send')) },
    { settings, code: lines(...dueReminders('hub.clients.get(reminder.socketId)', 'recipient?.send')) },
    { settings, code: lines(...reconnecting('createConnection')) },
    { settings, code: lines(...reconnecting('createPool')) },
  ],
  invalid: [
    {
      settings,
      code: lines(...cachedChannel),
      errors: [
        // one key for every guild's timer would let one guild's post through: no suggestion
        { messageId: 'unguardedSchedule', line: 4, column: 17, suggestions: [] },
      ],
    },
    {
      settings,
      code: lines(...fetchedChannel),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 4,
          column: 15,
          suggestions: suggested(fetchedChannel, 0, 4, "    if (!(await claimPeriod('bot:file-4', 3_600_000))) return;"),
        },
      ],
    },
    {
      settings,
      code: lines(...fetchedUser),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 2,
          column: 15,
          suggestions: suggested(fetchedUser, -1, 2, "    if (!(await claimPeriod('bot:file-2', 60_000))) return;"),
        },
      ],
    },
    {
      settings,
      code: lines(...cachedChannelOptional),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 2,
          column: 15,
          suggestions: suggested(cachedChannelOptional, -1, 2, "    if (!(await claimPeriod('bot:file-2', 60_000))) return;"),
        },
      ],
    },
    {
      settings,
      code: lines(...reconnecting('createAccount')),
      errors: [{ messageId: 'unguardedSchedule', line: 15, column: 16, suggestions: [] }],
    },
  ],
});
