// A transition out of a state checked in JavaScript, with work on its path, the state then set by
// SQL text (`SET status = 'shipped' WHERE id = $1`): two requests or workers both read `pending`, both
// do the work and both write `shipped`. Reported on the read. A row read by its key through an ORM and
// moved by an ORM write (`update({ status: 'paid' }, { where: { id } })`, `order.status = 'paid';
// order.save()`) is no-read-then-write's finding (checkedStateChanged,
// no-read-then-write.checked-transitions.test.ts): this rule stays quiet on it, one report per race.
// Not reported: the state re-checked in the update's filter and its count used, the row read `FOR
// UPDATE` in the transaction, a validation that throws and moves no state, a transition with no
// work on its path.
import { ruleTester } from './rule-tester.js';
import { requireAtomicClaim, type RequireAtomicClaimMessageIds } from '../../rules/require-atomic-claim.js';
import { lines, movedTransitions, ship } from './read-write/checked-transitions.js';

const rule = requireAtomicClaim as unknown as Parameters<typeof ruleTester.run<RequireAtomicClaimMessageIds, readonly unknown[]>>[1];
const claim = (line: number, column: number) => ({ messageId: 'checkedFlagClaim' as const, data: { column: 'status' }, line, column });

const CONDITIONAL_SET = [
  "const [changed] = await Shipment.update({ status: 'sent' }, { where: { id, status: 'ready' } });",
  'if (changed === 0) return;',
  'await courier.book(shipment.address);',
];

export const transitions = {
  valid: [
    // the state re-checked in the update's filter, its count deciding who books
    ship("if (shipment.status !== 'ready') return;", ...CONDITIONAL_SET),
    // the same in SQL, the row count checked
    lines(
      'export async function dispatchShipment(pool, id: string) {',
      "  const { rows } = await pool.query('SELECT * FROM shipments WHERE id = $1', [id]);",
      "  if (rows[0].status !== 'ready') return;",
      "  const result = await pool.query(\"UPDATE shipments SET status = 'sent' WHERE id = $1 AND status = 'ready'\", [id]);",
      '  if (result.rowCount === 0) return;',
      '  await courier.book(rows[0].address);',
      '}',
    ),
    // the row read FOR UPDATE in the transaction that moves it
    lines(
      'export async function dispatchShipment(prisma, id: string) {',
      '  await prisma.$transaction(async (tx) => {',
      '    const [shipment] = await tx.$queryRaw`SELECT * FROM shipments WHERE id = ${id} FOR UPDATE`;',
      "    if (shipment.status !== 'ready') return;",
      '    await courier.book(shipment.address);',
      "    await tx.shipment.update({ where: { id }, data: { status: 'sent' } });",
      '  });',
      '}',
    ),
    // a validation that throws, and no state moved
    ship(
      "if (shipment.status !== 'ready') throw new Error('not ready');",
      'await Shipment.update({ label: "fragile" }, { where: { id } });',
    ),
    // a transition with nothing done on its path but reads and a log line: both writers write the same state
    ship(
      "if (shipment.status !== 'ready') throw new Error('not ready');",
      'const carrier = await carriers.getCarrier(shipment.carrierId);',
      "await Shipment.update({ status: 'held', carrier: carrier.code }, { where: { id } });",
    ),
    // a state in an event's payload is no write of the row
    ship(
      "if (shipment.status !== 'ready') throw new Error('not ready');",
      "await events.emit('shipment.checked', { id, status: 'checked' });",
      'await courier.quote(shipment.address);',
    ),
    // nothing at all between the check and the move
    ship("if (shipment.status !== 'ready') throw new Error('not ready');", "await Shipment.update({ status: 'held' }, { where: { id } });"),
  ],
  invalid: [
    // raw SQL, the state set in the statement's text
    {
      code: lines(
        'export async function dispatchShipment(pool, id: string) {',
        "  const { rows } = await pool.query('SELECT * FROM shipments WHERE id = $1', [id]);",
        "  if (rows[0].status !== 'ready') return;",
        '  await courier.book(rows[0].address);',
        '  await pool.query("UPDATE shipments SET status = \'sent\' WHERE id = $1", [id]);',
        '}',
      ),
      errors: [claim(2, 31)],
    },
  ],
};

ruleTester.run('require-atomic-claim: a transition out of a state checked in JavaScript', rule, transitions);

// Flagged once: the ORM forms are no-read-then-write's (read-write/checked-transitions.ts, no-read-then-write.checked-states.test.ts).
ruleTester.run('require-atomic-claim: a state moved on a row read by its key through an ORM is not its finding', rule, {
  valid: movedTransitions.map(({ code }) => code),
  invalid: [],
});
