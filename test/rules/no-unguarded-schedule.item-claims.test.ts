// no-unguarded-schedule on a job that claims each item before its side effect: it inserts a
// marker row that a unique key lets exist once, in a form that answers "nothing inserted" (drizzle
// `onConflictDoNothing()`, SQL `ON CONFLICT DO NOTHING` / `INSERT IGNORE`, Prisma `createMany({
// skipDuplicates })`) or catches the unique violation, and skips the item when nothing went in —
// at two replicas only one sends, so it is quiet. Each twin is reported: the marker's answer is
// never tested, the test reads something else, the insert does not ignore a conflict, the catch
// does not leave, or the mail goes out before the claim.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { guardedReport } from './schedule-report.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'tasks' } };
const HEAD = ["import cron from 'node-cron';", "import { db, mailer, pool, prisma, remindersSent } from './deps';"];

const MAIL = 'await mailer.sendReminder(task.email, task.title);';
/** A reminder job on node-cron whose loop over the due tasks runs `statements`. */
const reminderLoop = (statements: string[]) =>
  lines(
    ...HEAD,
    "cron.schedule('*/5 * * * *', sendReminders);",
    'async function sendReminders() {',
    '  const due = await db.select().from(tasks);',
    '  for (const task of due) {',
    ...statements.map((statement) => `    ${statement}`),
    '  }',
    '}',
  );
/** The loop runs `claim` (statements) before it mails each task. */
const reminders = (...claim: string[]) => reminderLoop([...claim, MAIL]);

/** The same job reported at `sendReminders` (line 3), the guard suggested as the work's first statement. */
const reported = (code: string) =>
  guardedReport(settings, code, {
    line: 3,
    column: 30,
    guard: "  if (!(await claimPeriod('tasks:send-reminders', { cron: '*/5 * * * *' }))) return;",
    after: 4,
    importAfter: 2,
  });

const drizzleMarker = 'db.insert(remindersSent).values({ taskId: task.id }).onConflictDoNothing().returning()';
const pgMarker = "pool.query('INSERT INTO reminders_sent (task_id) VALUES ($1) ON CONFLICT (task_id) DO NOTHING', [task.id])";
const prismaMarker = (options: string) => `prisma.reminderSent.createMany({ data: [{ taskId: task.id }]${options} })`;

ruleTester.run('no-unguarded-schedule: each item claimed before its effect', noUnguardedSchedule, {
  valid: [
    // drizzle: the marker's returned row is tested, the task skipped when another replica has it
    { settings, code: reminders(`const [claimed] = await ${drizzleMarker};`, 'if (!claimed) continue;') },
    // pg: ON CONFLICT DO NOTHING, the row count tested
    { settings, code: reminders(`const { rowCount } = await ${pgMarker};`, 'if (rowCount === 0) continue;') },
    // the count tested inline
    { settings, code: reminders(`if ((await ${pgMarker}).rowCount === 0) continue;`) },
    // MySQL's INSERT IGNORE, the result kept whole
    {
      settings,
      code: reminders(
        "const result = await pool.query('INSERT IGNORE INTO reminders_sent (task_id) VALUES (?)', [task.id]);",
        'if (result.affectedRows < 1) continue;',
      ),
    },
    // Prisma: createMany skipping duplicates, the count tested
    { settings, code: reminders(`const { count } = await ${prismaMarker(', skipDuplicates: true')};`, 'if (count === 0) continue;') },
    // the unique violation caught, and the task left
    {
      settings,
      code: reminders(
        'try {',
        '  await prisma.reminderSent.create({ data: { taskId: task.id } });',
        '} catch (error) {',
        "  if (error.code === 'P2002') continue;",
        '  throw error;',
        '}',
      ),
    },
    // the claim in a same-file helper, inside its try, before the helper sends
    {
      settings,
      code: lines(
        ...HEAD,
        "cron.schedule('*/5 * * * *', sendReminders);",
        'async function sendReminders() {',
        '  const due = await db.select().from(tasks);',
        '  for (const task of due) await remind(task);',
        '}',
        'async function remind(task) {',
        '  try {',
        `    const [inserted] = await ${drizzleMarker};`,
        '    if (!inserted) return;',
        '  } catch (error) {',
        '    console.error(error);',
        '    return;',
        '  }',
        '  await mailer.sendReminder(task.email, task.title);',
        '}',
      ),
    },
  ],
  invalid: [
    // the marker is inserted but its answer is never read: every replica sends
    reported(reminders(`await ${drizzleMarker};`)),
    // the answer is kept, but the test reads something else
    reported(reminders(`const [claimed] = await ${drizzleMarker};`, 'if (!task.email) continue;')),
    // a plain insert (no conflict ignored) whose count is tested
    reported(reminders(`const { count } = await ${prismaMarker('')};`, 'if (count === 0) continue;')),
    // the unique violation caught, but the task is mailed anyway
    reported(
      reminders(
        'try {',
        '  await prisma.reminderSent.create({ data: { taskId: task.id } });',
        '} catch (error) {',
        "  if (error.code === 'P2002') console.warn('already sent');",
        '}',
      ),
    ),
    // the mail goes out before the claim
    reported(reminderLoop([MAIL, `const [claimed] = await ${drizzleMarker};`, 'if (!claimed) continue;'])),
  ],
});
