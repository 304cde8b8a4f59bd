// require-atomic-claim on a flag a worker picks rows by and sets once it acted on them, when the
// flag is not written as an object key: a builder's column string (`.where('members.synced',
// '=', false)` then `.set({ synced: true })`, flag-pairs.ts) or SQL (`WHERE mailed = 0` then
// `UPDATE … SET mailed = 1 WHERE id = …`, sql-flag-pairs.ts). Quiet when the write re-checks the
// flag and its count decides, when nothing sets the flag, and when the rows are read with the flag
// already set.
import { ruleTester, jsRuleTester } from './rule-tester.js';
import { claim } from './claim-report.js';
import { requireAtomicClaim, type RequireAtomicClaimMessageIds } from '../../rules/require-atomic-claim.js';

const lines = (...l: string[]) => l.join('\n');
const rule = requireAtomicClaim as unknown as Parameters<typeof ruleTester.run<RequireAtomicClaimMessageIds, readonly unknown[]>>[1];

/** A Kysely job pushing unsynced members to a CRM: `read` filters them, `mark` runs after each push. */
const crmSync = (mark: string, read = ".where('members.synced_to_crm', '=', false)") =>
  lines(
    'export class CrmSync {',
    '  constructor(private readonly db: any, private readonly crm: any) {}',
    '  async run() {',
    `    const stale = await this.db.selectFrom('members').select(['members.member_id', 'members.phone'])${read}.limit(20).execute();`,
    '    for (const m of stale) {',
    '      await this.crm.push(m.phone);',
    `      ${mark}`,
    '    }',
    '  }',
    '}',
  );

/** A raw-SQL sweep mailing a survey after each finished stay; `mark` runs after the mail. */
const surveys = (mark: string, filter = 'survey_mailed=0') =>
  lines(
    "const { sequelize } = require('./db');",
    'exports.mailSurveys = async () => {',
    `  const [stays] = await sequelize.query(\`SELECT s.id, g.email FROM Stays s JOIN Guests g ON g.id = s.guestId WHERE ${filter} AND s.checkout <= NOW()\`);`,
    '  for (const stay of stays) {',
    '    await mailer.send(stay.email);',
    `    ${mark}`,
    '  }',
    '};',
  );

const setSynced = "await this.db.updateTable('members').set({ synced_to_crm: true }).where('member_id', '=', m.member_id).execute();";

ruleTester.run('require-atomic-claim (a flag filtered false in a column string, set true)', rule, {
  valid: [
    // The set re-checks the flag, and its count decides who pushed.
    crmSync(
      "const r = await this.db.updateTable('members').set({ synced_to_crm: true }).where('member_id', '=', m.member_id).where('synced_to_crm', '=', false).executeTakeFirst(); if (Number(r.numUpdatedRows) === 0) continue;",
    ),
    // Nothing sets the flag: the read only filters by it.
    crmSync(
      "await this.db.updateTable('members').set({ pushed_at: new Date(), active: true }).where('member_id', '=', m.member_id).execute();",
    ),
    // Rows read with the flag set (members already synced): rows done, not rows waiting.
    crmSync(setSynced, ".where('members.synced_to_crm', '=', true)"),
  ],
  invalid: [
    claim(crmSync(setSynced), 'selectFrom', 'members.synced_to_crm', "this.db.updateTable('members')"),
    // Knex's two-argument filter.
    claim(
      lines(
        "import db from './knex';",
        'export async function pushReceipts() {',
        "  const open = await db('receipts').where('exported', false).select('*');",
        '  for (const r of open) {',
        '    await ledger.post(r);',
        "    await db('receipts').where({ id: r.id }).update({ exported: true });",
        '  }',
        '}',
      ),
      'where',
      'exported',
      "db('receipts').where({ id",
    ),
  ],
});

jsRuleTester.run('require-atomic-claim (an SQL flag filtered 0, set 1)', rule, {
  valid: [
    // The set re-checks the flag and the affected count decides who mails.
    surveys(
      'const [, meta] = await sequelize.query(`UPDATE Stays SET survey_mailed=1 WHERE id=${stay.id} AND survey_mailed=0`); if (meta.affectedRows === 0) continue;',
    ),
    // Nothing sets the flag.
    surveys('await sequelize.query(`UPDATE Stays SET last_contact=NOW() WHERE id=${stay.id}`);'),
    // Rows read with the flag set: stays already mailed.
    surveys('await sequelize.query(`UPDATE Stays SET survey_mailed=1 WHERE id=${stay.id}`);', 'survey_mailed=1'),
  ],
  invalid: [
    claim(
      surveys('await sequelize.query(`UPDATE Stays SET survey_mailed=1 WHERE id=${stay.id}`);'),
      'SELECT',
      'survey_mailed',
      'sequelize.query(`UPDATE',
    ),
    // `false` / `true`, several columns set.
    claim(
      surveys(
        'await sequelize.query(`UPDATE Stays SET mailed_on = NOW(), survey_mailed = true WHERE id = ${stay.id}`);',
        'survey_mailed = false',
      ),
      'SELECT',
      'survey_mailed',
      'sequelize.query(`UPDATE',
    ),
  ],
});
