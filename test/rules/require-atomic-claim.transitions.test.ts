// A transition out of a state checked in JavaScript, with work on its path: `if (order.status !==
// 'pending') return;`, a payment or a dispatch, then the state set to another value by the row's
// key (`update({ status: 'paid' }, { where: { id } })`, `order.status = 'paid'; order.save()`, SQL
// `SET status = 'shipped' WHERE id = $1`). Two requests or workers both read `pending`, both do the
// work and both write `paid`. Reported once, by this rule (no-read-then-write sees no value computed
// from the read): on the read, or on the save of a state assigned on the row. Not reported: the
// state re-checked in the update's filter and its count used, the row read `FOR UPDATE` in the
// transaction, a validation that throws and moves no state, a transition with no work on its path.
import { ruleTester } from './rule-tester.js';
import { requireAtomicClaim, type RequireAtomicClaimMessageIds } from '../../rules/require-atomic-claim.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const rule = requireAtomicClaim as unknown as Parameters<typeof ruleTester.run<RequireAtomicClaimMessageIds, readonly unknown[]>>[1];
const claim = (line: number, column: number) => ({ messageId: 'checkedFlagClaim' as const, data: { column: 'status' }, line, column });

/** A shipment worker: the shipment read by its key on line 3, then `body`. */
const ship = (...body: string[]) =>
  lines(
    "import { Shipment } from '../models/shipment.js';",
    'export async function dispatchShipment(id: string) {',
    '  const shipment = await Shipment.findByPk(id);',
    ...body.map((l) => `  ${l}`),
    '}',
  );

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
    {
      code: ship(
        "if (shipment.status !== 'ready') return;",
        'await courier.book(shipment.address);',
        "await Shipment.update({ status: 'sent' }, { where: { id } });",
      ),
      errors: [claim(3, 35)],
    },
    // the row's own save, after a check that also leaves on a missing row
    {
      code: ship(
        "if (!shipment || shipment.status !== 'ready') return;",
        "shipment.status = 'sent';",
        'await shipment.save();',
        'await courier.book(shipment.address);',
      ),
      errors: [claim(6, 18)],
    },
    // a block run when the state is the one expected
    {
      code: ship(
        "if (shipment.status === 'ready') {",
        '  await courier.book(shipment.address);',
        "  await Shipment.update({ status: 'sent' }, { where: { id } });",
        '}',
      ),
      errors: [claim(3, 35)],
    },
    // the work a request sent with the global `fetch`
    {
      code: ship(
        "if (shipment.status !== 'ready') return;",
        "await fetch(hookUrl, { method: 'POST', body: JSON.stringify({ id }) });",
        "await Shipment.update({ status: 'sent' }, { where: { id } });",
      ),
      errors: [claim(3, 35)],
    },
    // Prisma, the read by its unique key
    {
      code: lines(
        'export async function dispatchShipment(prisma, id: string) {',
        '  const shipment = await prisma.shipment.findUnique({ where: { id } });',
        "  if (shipment?.status !== 'READY') return;",
        '  await courier.book(shipment.address);',
        "  await prisma.shipment.update({ where: { id }, data: { status: 'SENT' } });",
        '}',
      ),
      errors: [claim(2, 42)],
    },
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

// Flagged once: no-read-then-write sees no value computed from the read in any of them.
const readThenWrite = noReadThenWrite as unknown as Parameters<typeof ruleTester.run<string, readonly unknown[]>>[1];
ruleTester.run('no-read-then-write: a transition out of a checked state is not its finding', readThenWrite, {
  valid: [...transitions.valid, ...transitions.invalid.map((c) => c.code)],
  invalid: [],
});
