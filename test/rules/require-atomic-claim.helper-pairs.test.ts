// require-atomic-claim when a worker reads through a data module's helper named for the rows still
// waiting (`this.parcels.findPendingPickups()`) and marks each through a helper of the same receiver
// named for marking it done (`this.parcels.markPickupRequested(parcel.id)`), the module out of reach
// (not on disk here): the names are the claim's halves. Not reported: the mark made on another
// receiver, a helper named for a count, a mark not handed the row, helpers the file itself defines
// (judged by their code).
import { ruleTester } from './rule-tester.js';
import { claim } from './claim-report.js';
import { requireAtomicClaim, type RequireAtomicClaimMessageIds } from '../../rules/require-atomic-claim.js';

const lines = (...l: string[]) => l.join('\n');
const rule = requireAtomicClaim as unknown as Parameters<typeof ruleTester.run<RequireAtomicClaimMessageIds, readonly unknown[]>>[1];

/** A relay over pending pickups read through `ParcelStore`: `mark` is what the loop does after notifying. */
const relay = (mark: string, read = 'this.parcels.findPendingPickups(25)') =>
  lines(
    "import { ParcelStore } from './parcel.store';",
    'export class CourierRelay {',
    '  constructor(private readonly parcels: ParcelStore, private readonly audit: AuditLog) {}',
    '  async relay() {',
    `    const pending = await ${read};`,
    '    for (const parcel of pending) {',
    '      await courier.notify(parcel.address);',
    `      ${mark}`,
    '    }',
    '  }',
    '}',
  );

ruleTester.run('require-atomic-claim (helpers named for waiting rows and their mark)', rule, {
  valid: [
    // another receiver's helper
    relay('await this.audit.markPickupRequested(parcel.id);'),
    // a helper named for a count hands out no rows
    relay('await this.parcels.markPickupRequested(parcel.id);', 'this.parcels.getPendingCount()'),
    // the mark is not handed the row
    relay('await this.parcels.markRunFinished(runId);'),
    // helpers of this file are judged by their code: this mark re-checks the state and its count is used
    lines(
      'const parcels = {',
      "  async findPendingPickups() { return db.parcel.findMany({ where: { status: 'PENDING' } }); },",
      "  async markPickupRequested(id) { return (await db.parcel.updateMany({ where: { id, status: 'PENDING' }, data: { status: 'REQUESTED' } })).count; },",
      '};',
      'export async function relay() {',
      '  const pending = await parcels.findPendingPickups();',
      '  for (const parcel of pending) {',
      '    if (!(await parcels.markPickupRequested(parcel.id))) continue;',
      '    await courier.notify(parcel.address);',
      '  }',
      '}',
    ),
  ],
  invalid: [
    claim(relay('await this.parcels.markPickupRequested(parcel.id);'), 'findPendingPickups', 'status', 'this.parcels.markPickupRequested('),
    claim(
      relay('await this.parcels.setPickupDispatched({ id: parcel.id });', 'this.parcels.listUnsentPickups()'),
      'listUnsentPickups',
      'status',
      'this.parcels.setPickupDispatched(',
    ),
  ],
});
