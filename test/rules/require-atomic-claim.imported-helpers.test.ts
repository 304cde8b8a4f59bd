// require-atomic-claim when a worker reads through a function it imports from a project module and
// marks the rows through another function of the same module, the module out of reach (not on disk
// here): `const { listFresh, markAllDelivered } = require('./stores/mail-queue.store')`. A module
// named for a queue (`mail-queue`, `outbox`) lets any read verb hand out its waiting rows; another
// module's read must be named for them (`findPendingInvoices`). Not reported: a read verb from a
// module named for no queue, the mark imported from another module, functions the file declares.
import { ruleTester } from './rule-tester.js';
import { claim } from './claim-report.js';
import { requireAtomicClaim, type RequireAtomicClaimMessageIds } from '../../rules/require-atomic-claim.js';

const lines = (...l: string[]) => l.join('\n');
const rule = requireAtomicClaim as unknown as Parameters<typeof ruleTester.run<RequireAtomicClaimMessageIds, readonly unknown[]>>[1];

/** A mail flusher: `bindings` import the read and the mark, the batch is delivered and then marked by its ids. */
const flusher = (...bindings: string[]) =>
  lines(
    ...bindings,
    "const { deliverBatch } = require('./deliver');",
    'async function flushMail() {',
    '  const waiting = await listFresh();',
    '  if (waiting.length === 0) return;',
    '  await deliverBatch(waiting);',
    '  const ids = waiting.map((m) => m.id);',
    '  await markAllDelivered(ids);',
    '}',
    'module.exports = { flushMail };',
  );

/** An invoice sender importing its helpers with `imports`, marking each invoice after mailing it. */
const sender = (imports: string) =>
  lines(
    imports,
    'export async function sendInvoices() {',
    '  const due = await findPendingInvoices();',
    '  for (const invoice of due) {',
    '    await mailer.send(invoice.email);',
    '    await markInvoiceSent(invoice.id);',
    '  }',
    '}',
  );

ruleTester.run('require-atomic-claim (a read and a mark imported from one module)', rule, {
  valid: [
    // a read verb from a module named for no queue
    flusher("const { listFresh, markAllDelivered } = require('../../stores/newsletter.store');"),
    // the mark from another module than the read
    flusher(
      "const { listFresh } = require('../../stores/mail-queue.store');",
      "const { markAllDelivered } = require('../../audit/delivery-log');",
    ),
    sender("import { findPendingInvoices } from '../billing/invoices';\nimport { markInvoiceSent } from '../billing/ledger';"),
    // helpers the file declares: judged by their code
    lines('async function listFresh() { return cache.values(); }', 'async function markAllDelivered(ids) { log.info(ids); }', flusher()),
  ],
  invalid: [
    claim(
      flusher("const { listFresh, markAllDelivered } = require('../../stores/mail-queue.store');"),
      'listFresh()',
      'status',
      'markAllDelivered(',
    ),
    claim(
      sender("import { findPendingInvoices, markInvoiceSent } from '../billing/invoices';"),
      'findPendingInvoices()',
      'status',
      'markInvoiceSent(',
    ),
  ],
});
