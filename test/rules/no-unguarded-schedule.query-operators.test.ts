// no-unguarded-schedule for a job that reads rows and writes a file on this host: the query
// operators of an ORM in the criteria (`MoreThan(date)` from typeorm, `lt(col, v)` from drizzle-orm)
// and a document built in memory by a feed package (`new RSS(…)`, `feed.item(…)`) stay on the
// host, so the job regenerating a file every replica serves is quiet. A model class deleting rows
// by criteria (`SessionEntity.delete({ … })`) is a shared write whether awaited or not.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'api' } };

/** A Nest job whose method body is `body` (one line each), with `imports` first. */
const job = (imports: string[], ...body: string[]) =>
  lines(
    "import { Cron, CronExpression } from '@nestjs/schedule';",
    ...imports,
    'export class FeedJob {',
    '  @Cron(CronExpression.EVERY_HOUR)',
    '  async run() {',
    ...body,
    '  }',
    '}',
  );

const FEED_IMPORTS = ["import { MoreThan } from 'typeorm';", "import * as RSS from 'rss';", "const fs = require('node:fs/promises');"];
const FEED_BODY = [
  "    const feed = new RSS({ title: 'Upcoming' });",
  '    const events = await EventEntity.find({ where: { startAt: MoreThan(new Date()) }, take: 20 });',
  '    events.forEach((e) => feed.item({ title: e.name, guid: e.id }));',
  "    await fs.writeFile('./public/feed/upcoming.rss', feed.xml());",
];

const IMPORT = "import { claimPeriod } from 'replica-guard';";
const GUARD = "    if (!(await claimPeriod('api:run', { cron: CronExpression.EVERY_HOUR }))) return;";

/** Reported at the decorator, the suggestion putting the guard first and the import after the other imports. */
const reported = (line: number, output: string) => [
  { messageId: 'unguardedSchedule' as const, line, column: 3, suggestions: [{ messageId: 'addClaimPeriod' as const, output }] },
];

const DELETE = '    SessionEntity.delete({ idleSince: LessThanOrEqual(new Date()) });';
const UPLOADED = [...FEED_BODY.slice(0, 3), '    await this.storage.upload(feed.xml());'];

ruleTester.run('no-unguarded-schedule: query operators and documents built in memory', noUnguardedSchedule, {
  valid: [
    { settings, code: job(FEED_IMPORTS, ...FEED_BODY) },
    {
      settings,
      code: job(
        ["import { and, lt, eq } from 'drizzle-orm';", "import { writeFile } from 'node:fs/promises';", "import { db } from './db';"],
        '    const rows = await db.query.events.findMany({ where: and(lt(events.at, new Date()), eq(events.open, true)) });',
        "    await writeFile('./public/past.json', JSON.stringify(rows));",
      ),
    },
  ],
  invalid: [
    // rows deleted by a model class, its promise not awaited
    {
      settings,
      code: job(["import { LessThanOrEqual } from 'typeorm';"], DELETE),
      errors: reported(4, job(["import { LessThanOrEqual } from 'typeorm';", IMPORT], GUARD, DELETE)),
    },
    // the feed handed to another service instead of written here
    {
      settings,
      code: job(FEED_IMPORTS, ...UPLOADED),
      errors: reported(6, job([...FEED_IMPORTS.slice(0, 2), IMPORT, FEED_IMPORTS[2]!], GUARD, ...UPLOADED)),
    },
  ],
});
