// require-atomic-claim when the update after the read sets a state on rows of another table, keyed
// by the rows read (`incidents.monitor_id IN ids` after reading monitors): those are other rows,
// and marking them claims nothing of what was read. The same table under another spelling (a
// plural, a `…Table` / `…Repository` name, a schema prefix), a delete of the read rows' children,
// and an update whose table the code does not name plainly still count.
import { ruleTester } from './rule-tester.js';
import { claim } from './claim-report.js';
import { requireAtomicClaim, type RequireAtomicClaimMessageIds } from '../../rules/require-atomic-claim.js';

const lines = (...l: string[]) => l.join('\n');
const rule = requireAtomicClaim as unknown as Parameters<typeof ruleTester.run<RequireAtomicClaimMessageIds, readonly unknown[]>>[1];

const DRIZZLE = "import { and, eq, inArray, isNull } from 'drizzle-orm';\nimport { db, schema } from './db';";

ruleTester.run('require-atomic-claim (rows of another table)', rule, {
  valid: [
    // Drizzle: paused devices read, their open alerts closed
    lines(
      DRIZZLE,
      'export async function closeAlerts() {',
      "  const paused = await db.select({ id: schema.device.id }).from(schema.device).where(eq(schema.device.status, 'paused'));",
      '  const ids = paused.map((d) => d.id);',
      '  await db.update(schema.alertTable).set({ closedAt: new Date() }).where(inArray(schema.alertTable.deviceId, ids));',
      '}',
    ),
    // raw SQL: each pending order's lines stamped, the orders themselves left alone
    lines(
      'export async function stampLines(pool) {',
      '  const { rows } = await pool.query("SELECT id FROM orders WHERE status = \'pending\'");',
      '  for (const row of rows) {',
      "    await pool.query('UPDATE order_lines SET reviewed_at = now() WHERE order_id = $1', [row.id]);",
      '  }',
      '}',
    ),
  ],
  invalid: [
    // the same table, spelt as a plural table object and a `…Table` name
    claim(
      lines(
        DRIZZLE,
        'export async function sendDigests() {',
        "  const due = await db.select().from(schema.digests).where(eq(schema.digests.status, 'due'));",
        '  for (const digest of due) {',
        '    await mail(digest);',
        "    await db.update(schema.digestTable).set({ status: 'sent' }).where(eq(schema.digestTable.id, digest.id));",
        '  }',
        '}',
      ),
      'select',
      'status',
      'db.update(',
    ),
    // raw SQL with a schema prefix on one side
    claim(
      lines(
        'export async function relay(pool) {',
        '  const { rows } = await pool.query("SELECT * FROM outbox WHERE status = \'pending\' LIMIT 20");',
        '  for (const row of rows) {',
        '    await publish(row);',
        '    await pool.query("UPDATE public.outbox SET status = \'sent\' WHERE id = $1", [row.id]);',
        '  }',
        '}',
      ),
      'SELECT',
      'status',
      'pool.query(',
    ),
    // the update's table not named plainly (a loaded row saved): still the read's rows
    claim(
      lines(
        "import { Repository } from 'typeorm';",
        'export async function remind(invites: Repository<Invite>) {',
        "  const open = await invites.find({ where: { status: 'open' } });",
        '  for (const invite of open) {',
        '    await mail(invite);',
        "    invite.status = 'reminded';",
        '    await invites.save(invite);',
        '  }',
        '}',
      ),
      'find',
      'status',
      'invites.save(',
    ),
  ],
});
