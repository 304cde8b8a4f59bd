// no-unguarded-schedule on a timer whose work writes through a query builder started on a table:
// `await knex('upload_parts').where('id', id).del()`, `db('coupons').update({ … })`. The receiver
// of the write is a chain of builder calls; where it starts — the database handle called with a
// table's name — says it is the database, and every replica sends the write. A builder that only
// reads, a `Map`'s `delete`, and a call of a function by another name (`tidy('x')`) stay quiet.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { guardedReport } from './schedule-report.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'uploads' } };

/** An hourly sweep of abandoned upload parts whose last statement is `statement`. */
const sweep = (handle: string, statement: string) =>
  lines(
    `import { ${handle} } from './database';`,
    'async function dropAbandonedParts() {',
    `  const parts = await ${handle}('upload_parts').where('abandoned', true).select('id');`,
    `  for (const part of parts) ${statement};`,
    '}',
    'setInterval(dropAbandonedParts, 3_600_000);',
  );

ruleTester.run('no-unguarded-schedule: writes through a table builder', noUnguardedSchedule, {
  valid: [
    // Only reads.
    { settings, code: sweep('knex', 'console.info(part.id)') },
    // Not a builder started on a table: a function of another name, a `Map`.
    { settings, code: sweep('tidy', "await tidy('upload_parts').where('id', part.id).del()") },
    { settings, code: sweep('knex', 'seen.delete(part.id)').replace('async function', 'const seen = new Map();\nasync function') },
  ],
  invalid: [
    guardedReport(settings, sweep('knex', "await knex('upload_parts').where('id', part.id).del()"), {
      line: 6,
      column: 13,
      guard: "  if (!(await claimPeriod('uploads:drop-abandoned-parts', 3_600_000))) return;",
      after: 2,
      importAfter: 1,
    }),
    guardedReport(settings, sweep('db', "await db('upload_parts').where({ id: part.id }).update({ state: 'gone' })"), {
      line: 6,
      column: 13,
      guard: "  if (!(await claimPeriod('uploads:drop-abandoned-parts', 3_600_000))) return;",
      after: 2,
      importAfter: 1,
    }),
  ],
});
