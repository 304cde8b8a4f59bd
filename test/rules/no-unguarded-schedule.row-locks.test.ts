// no-unguarded-schedule on a job whose work locks the rows it works on for update, in the
// transaction that does the work: a job-cursor row read `FOR UPDATE` (SQL, Kysely/Knex
// `.forUpdate()`, Drizzle `.for('update')`), a task row found with TypeORM's `lock: { mode:
// 'pessimistic_write' }` or Sequelize's `lock: true` in its transaction. A second replica waits on
// the lock and then reads what the first left, so the job is quiet. Its twins are reported: the
// same read without the lock, a shared lock (`FOR SHARE`), the words in a log line, a lock option
// that is not a row lock, a lock outside any transaction (let go when its statement ends), and a
// lock taken after the job has already written other rows. A lock taken in a same-file helper that the
// transaction's callback calls counts as the callback's own; the helper's lock outside a transaction does not.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { guardedReport } from './schedule-report.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'reports' } };

/** A node-cron job whose transaction runs `statements` and then routes the next batch of reports. */
const routeJob = (...statements: string[]) =>
  lines(
    "import cron from 'node-cron';",
    "import { db, router, logger } from './deps';",
    "cron.schedule('* * * * *', routeReports);",
    'async function routeReports() {',
    '  await db.transaction().execute(async (trx) => {',
    ...statements.map((statement) => `    ${statement}`),
    '    const routed = await router.routeBatch(trx, cursor?.position ?? 0);',
    "    await trx.updateTable('job_cursor').set({ position: routed.last }).where('job', '=', 'router').execute();",
    '  });',
    '}',
  );

/** The same job with no transaction around its statements. */
const routeJobOutsideTransaction = (...statements: string[]) =>
  lines(
    "import cron from 'node-cron';",
    "import { db, router, logger } from './deps';",
    "cron.schedule('* * * * *', routeReports);",
    'async function routeReports() {',
    ...statements.map((statement) => `  ${statement}`),
    '  const routed = await router.routeBatch(db, cursor?.position ?? 0);',
    "  await db.updateTable('job_cursor').set({ position: routed.last }).where('job', '=', 'router').execute();",
    '}',
  );

/** The job reported at `routeReports` (line 3), the guard suggested as the work's first statement. */
const reported = (code: string) =>
  guardedReport(settings, code, {
    line: 3,
    column: 28,
    guard: "  if (!(await claimPeriod('reports:route-reports', { cron: '* * * * *' }))) return;",
    after: 4,
    importAfter: 2,
  });

const kyselyCursor = (lock: string) =>
  `const cursor = await trx.selectFrom('job_cursor').selectAll().where('job', '=', 'router')${lock}.executeTakeFirst();`;
const pgCursor = (sql: string) => `const { rows: [cursor] } = await trx.query(${sql}, ['router']);`;

/** A same-file helper reading the cursor row through the client it is handed, with `lock` after the builder's `where`. */
const lockCursorHelper = (lock: string) =>
  lines(
    'async function lockCursor(client) {',
    `  return client.selectFrom('job_cursor').selectAll().where('job', '=', 'router')${lock}.executeTakeFirst();`,
    '}',
  );
/** The same helper sending SQL ending in `clause`. */
const lockCursorSqlHelper = (clause: string) =>
  lines(
    'async function lockCursor(client) {',
    `  const { rows } = await client.query('SELECT position FROM job_cursor WHERE job = $1 ${clause}', ['router']);`,
    '  return rows[0];',
    '}',
  );

ruleTester.run('no-unguarded-schedule: rows locked for update in the work’s transaction', noUnguardedSchedule, {
  valid: [
    { settings, code: routeJob(kyselyCursor('.forUpdate()')) },
    { settings, code: routeJob(kyselyCursor('.forNoKeyUpdate()')) },
    { settings, code: routeJob(pgCursor("'SELECT position FROM job_cursor WHERE job = $1 FOR UPDATE'")) },
    // the statement in a template with a value in it
    { settings, code: routeJob(pgCursor('`SELECT position FROM ${"job_cursor"} WHERE job = $1 FOR UPDATE`')) },
    // Drizzle
    { settings, code: routeJob("const [cursor] = await trx.select().from(jobCursor).where(eq(jobCursor.job, 'router')).for('update');") },
    // TypeORM: a find option
    {
      settings,
      code: routeJob("const cursor = await trx.findOne(JobCursor, { where: { job: 'router' }, lock: { mode: 'pessimistic_write' } });"),
    },
    // postgres.js: the statement in `sql.begin`'s callback
    {
      settings,
      code: lines(
        "import cron from 'node-cron';",
        "import { sql, router } from './deps';",
        "cron.schedule('* * * * *', routeReports);",
        'async function routeReports() {',
        '  await sql.begin(async (tx) => {',
        "    const [cursor] = await tx`SELECT position FROM job_cursor WHERE job = ${'router'} FOR UPDATE`;",
        '    await router.routeBatch(tx, cursor.position);',
        '  });',
        '}',
      ),
    },
    // Sequelize: `lock` with the transaction
    { settings, code: routeJob("const cursor = await JobCursor.findOne({ where: { job: 'router' }, lock: true, transaction: trx });") },
    // the lock taken in a same-file helper the transaction's callback calls with its transaction
    { settings, code: routeJob('const cursor = await lockCursor(trx);') + '\n' + lockCursorHelper('.forUpdate()') },
    { settings, code: routeJob('const cursor = await lockCursor(trx);') + '\n' + lockCursorSqlHelper('FOR UPDATE') },
  ],
  invalid: [
    // the helper reads without a lock, or locks outside any transaction
    reported(routeJob('const cursor = await lockCursor(trx);') + '\n' + lockCursorHelper('')),
    reported(routeJob('const cursor = await lockCursor(trx);') + '\n' + lockCursorSqlHelper('FOR SHARE')),
    reported(routeJobOutsideTransaction('const cursor = await lockCursor(db);') + '\n' + lockCursorHelper('.forUpdate()')),
    reported(routeJob(kyselyCursor(''))),
    // a shared lock lets both replicas through
    reported(routeJob(kyselyCursor('.forShare()'))),
    reported(routeJob(pgCursor("'SELECT position FROM job_cursor WHERE job = $1 FOR SHARE'"))),
    // the words in a log line, not a statement
    reported(routeJob("logger.info('waiting for update of the cursor');", kyselyCursor(''))),
    // a read lock mode; `lock: true` with no transaction beside it
    reported(routeJob("const cursor = await trx.findOne(JobCursor, { where: { job: 'router' }, lock: { mode: 'pessimistic_read' } });")),
    reported(routeJob("const cursor = await JobCursor.findOne({ where: { job: 'router' }, lock: true });")),
    // no transaction: the lock ends with its statement
    reported(routeJobOutsideTransaction(kyselyCursor('.forUpdate()').replace('trx.', 'db.'))),
    // other rows written before the lock: the lock covers only what follows it
    reported(
      routeJob("await trx.updateTable('reports').set({ stale: true }).where('age', '>', 30).execute();", kyselyCursor('.forUpdate()')),
    ),
  ],
});
