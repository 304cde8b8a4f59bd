// no-unguarded-schedule on a declared job whose work stays on this host through a getter that builds
// a module singleton of a class of the same file on first use (`getConfig()` → `new Config()`): the
// class's field initializers and constructor are read like a called function. One that only fills
// its fields keeps the job quiet; one whose constructor writes a row makes it reported.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { lines, suggested } from './schedule-suggestion.js';

const settings = { 'replica-guard': { service: 'media' } };

/** A queue tracker refreshed every minute, its config built by `Config`'s `constructorBody`. */
const tracker = (...constructorBody: string[]) => [
  "import { scheduleJob } from 'node-schedule';",
  "import { db } from './db';",
  'class Config {',
  "  private data: { url: string } = { url: 'http://radarr.internal' };",
  '  constructor(initial?: { url: string }) {',
  ...constructorBody.map((statement) => `    ${statement}`),
  '  }',
  '  get url(): string {',
  '    return this.data.url;',
  '  }',
  '}',
  'let config: Config | undefined;',
  'const getConfig = (): Config => (config ??= new Config());',
  'const queue = new Map<string, number>();',
  "scheduleJob('* * * * *', async () => {",
  '  const res = await fetch(`${getConfig().url}/api/queue`);',
  '  const items = (await res.json()) as Array<{ id: string; left: number }>;',
  '  for (const item of items) queue.set(item.id, item.left);',
  '});',
];
const fillsFields = ['if (initial) this.data = { ...this.data, ...initial };'];
const writesRow = ["void db.query('INSERT INTO config_loads (at) VALUES (now())');", 'if (initial) this.data = initial;'];

ruleTester.run('no-unguarded-schedule: a singleton built on this host', noUnguardedSchedule, {
  valid: [{ settings, code: lines(...tracker(...fillsFields)) }],
  invalid: [
    {
      settings,
      code: lines(...tracker(...writesRow)),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 16,
          column: 26,
          suggestions: suggested(
            tracker(...writesRow),
            1,
            16,
            "  if (!(await claimPeriod('media:file-16', { cron: '* * * * *' }))) return;",
          ),
        },
      ],
    },
  ],
});

/** A download tracker whose client, kept on the instance, reads `path` from the base URL it was built with. */
const downloads = (path: string) => [
  "import axios from 'axios';",
  "import { scheduleJob } from 'node-schedule';",
  'class Downloads {',
  "  private readonly http = axios.create({ baseURL: 'http://radarr.internal/api/v3' });",
  '  private items: Array<{ id: number; left: number }> = [];',
  '  async refresh(): Promise<void> {',
  `    const res = await this.http.get<Array<{ id: number; left: number }>>('${path}');`,
  '    this.items = res.data;',
  '  }',
  '}',
  'const downloads = new Downloads();',
  "scheduleJob('* * * * *', async () => {",
  '  await downloads.refresh();',
  '});',
];

// A path on a client kept on the instance is the client's base URL's, not this service's; a job's name in it still triggers work.
ruleTester.run('no-unguarded-schedule: a read through a client kept on the instance', noUnguardedSchedule, {
  valid: [{ settings, code: lines(...downloads('/queue')) }],
  invalid: [
    {
      settings,
      code: lines(...downloads('/command/sync')),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 12,
          column: 26,
          suggestions: suggested(
            downloads('/command/sync'),
            1,
            12,
            "  if (!(await claimPeriod('media:file-12', { cron: '* * * * *' }))) return;",
          ),
        },
      ],
    },
  ],
});
