// require-atomic-claim when the pending rows are picked by a due time (`renewAt: { lte: now }`) and
// each is moved to its next turn by writing that time again (`data: { renewAt: next }`) — in the
// loop, or in a helper method of the class the loop hands the row to; and when the state is kept
// as a lookup key (`state_id`) that a Sequelize `update` or an instance `save()` sets. Not
// reported: a turn moved with the due time re-checked and the count tested, an update of a column
// the read did not filter on (a log field), a row of another table keyed by the row.
import { ruleTester, jsRuleTester } from './rule-tester.js';
import { claim } from './claim-report.js';
import { requireAtomicClaim, type RequireAtomicClaimMessageIds } from '../../rules/require-atomic-claim.js';

const lines = (...l: string[]) => l.join('\n');
const rule = requireAtomicClaim as unknown as Parameters<typeof ruleTester.run<RequireAtomicClaimMessageIds, readonly unknown[]>>[1];

/** A class that bills due plans: `loop` is the loop body over them, `helper` a private method's body given `plan`. */
const plans = (loop: string, helper = 'await this.db.auditLog.create({ data: { planId: plan.id } });') =>
  lines(
    'export class PlanBiller {',
    '  constructor(private readonly db: any) {}',
    '  async billDue() {',
    '    const now = new Date();',
    "    const due = await this.db.plan.findMany({ where: { status: 'ACTIVE', billAt: { lte: now } } });",
    '    for (const plan of due) {',
    `      ${loop}`,
    '    }',
    '  }',
    '  private async billOne(plan: any) {',
    '    await sendInvoice(plan.accountId);',
    `    ${helper}`,
    '  }',
    '}',
  );

/** A Sequelize interval over parcels in state 2: `mark` is what it does to each. */
const parcels = (mark: string, where = 'where: { state_id: 2 }') =>
  lines(
    "const db = require('../models');",
    'const Parcel = db.parcel;',
    'const Courier = db.courier;',
    'setInterval(async () => {',
    `  const waiting = await Parcel.findAll({ ${where} });`,
    '  for (const parcel of waiting) {',
    '    await notifyCourier(parcel.courier_id);',
    `    ${mark}`,
    '  }',
    '}, 15000);',
  );

ruleTester.run('require-atomic-claim (a due time written again)', rule, {
  valid: [
    // The due time re-checked in the update's filter, and the count decides.
    plans(
      'const { count } = await this.db.plan.updateMany({ where: { id: plan.id, billAt: plan.billAt }, data: { billAt: nextMonth(plan.billAt) } });\n      if (count === 0) continue;\n      await sendInvoice(plan.accountId);',
    ),
    // A column the read did not filter on: a note of the run, not a turn.
    plans("await this.db.plan.update({ where: { id: plan.id }, data: { lastNote: 'billed' + plan.id } });"),
    // The helper writes another table, keyed by the plan.
    plans('await this.billOne(plan);'),
    // The helper's update re-checks the due time and returns its count.
    plans(
      'if (!(await this.billOne(plan))) continue;',
      'return (await this.db.plan.updateMany({ where: { id: plan.id, billAt: plan.billAt }, data: { billAt: nextMonth(plan.billAt) } })).count;',
    ),
  ],
  invalid: [
    claim(
      plans(
        'await sendInvoice(plan.accountId);\n      await this.db.plan.update({ where: { id: plan.id }, data: { billAt: nextMonth(plan.billAt) } });',
      ),
      'findMany',
      'status',
      'this.db.plan.update(',
    ),
    claim(
      plans(
        'await this.billOne(plan);',
        'await this.db.plan.update({ where: { id: plan.id }, data: { billAt: nextMonth(plan.billAt) } });',
      ),
      'findMany',
      'status',
      'this.db.plan.update(', // the span runs on to the helper's write, below the loop
    ),
  ],
});

jsRuleTester.run('require-atomic-claim (a state kept as a lookup key)', rule, {
  valid: [
    // Claimed by a conditional update whose count decides.
    parcels(
      'const [changed] = await Parcel.update({ state_id: 3 }, { where: { id: parcel.id, state_id: 2 } });\n    if (changed === 0) continue;',
    ),
    // Another table's row keyed by the parcel.
    parcels('await Courier.update({ state_id: 1 }, { where: { id: parcel.courier_id } });'),
    // Rows picked by a column that holds no state.
    parcels('await Parcel.update({ state_id: 3 }, { where: { id: parcel.id } });', 'where: { route_id: 2 }'),
  ],
  invalid: [
    claim(parcels('await Parcel.update({ state_id: 3 }, { where: { id: parcel.id } });'), 'findAll', 'state_id', 'Parcel.update('),
    claim(parcels('parcel.state_id = 3;\n    await parcel.save();'), 'findAll', 'state_id', 'parcel.save('),
    claim(
      parcels('parcel.orderStateId = 3;\n    await parcel.save();', 'where: { orderStateId: 2 }'),
      'findAll',
      'orderStateId',
      'parcel.save(',
    ),
  ],
});
