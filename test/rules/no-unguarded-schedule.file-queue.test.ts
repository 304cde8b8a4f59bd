// no-unguarded-schedule on a timer draining a queue kept in a file of this host that its module
// fills: `enqueue()` writes QUEUE_FILE, the timer reads it and mails what is due. Every item was
// handed in by a caller of this process, and the file lies on this host: at N replicas each drains
// its own. A timer reading a file its module never writes (a list shipped with the app) is judged by
// its work: mailing every entry of it is reported.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { lines, suggested } from './schedule-suggestion.js';

const settings = { 'replica-guard': { service: 'mail' } };

/** A module whose `enqueue` runs `fill`, and whose timer mails every due entry of the queue file. */
const fileQueue = (fill: string) => [
  "import { promises as fs } from 'node:fs';",
  "import { sendEmail } from './mailer';",
  "const QUEUE_FILE = './data/queue.json';",
  'export async function enqueue(job: { to: string; at: number }): Promise<void> {',
  '  const jobs = JSON.parse(await fs.readFile(QUEUE_FILE, "utf8"));',
  '  jobs.push(job);',
  `  ${fill}`,
  '}',
  'setInterval(async () => {',
  '  const jobs: Array<{ to: string; at: number }> = JSON.parse(await fs.readFile(QUEUE_FILE, "utf8"));',
  '  for (const job of jobs.filter((j) => j.at <= Date.now())) await sendEmail(job.to, "Your reminder");',
  '  await fs.writeFile(QUEUE_FILE, JSON.stringify(jobs.filter((j) => j.at > Date.now())));',
  '}, 10_000);',
];
const shipped = fileQueue('console.log(jobs.length);');

ruleTester.run('no-unguarded-schedule: a queue kept in a file of this host', noUnguardedSchedule, {
  valid: [
    { settings, code: lines(...fileQueue('await fs.writeFile(QUEUE_FILE, JSON.stringify(jobs));')) },
    { settings, code: lines(...fileQueue('fs.writeFileSync(QUEUE_FILE, JSON.stringify(jobs));')) },
  ],
  invalid: [
    {
      settings,
      code: lines(...shipped),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 9,
          column: 13,
          suggestions: suggested(shipped, 1, 9, "  if (!(await claimPeriod('mail:file-9', 10_000))) return;"),
        },
      ],
    },
  ],
});
