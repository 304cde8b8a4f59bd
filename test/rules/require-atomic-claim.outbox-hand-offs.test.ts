// require-atomic-claim on an outbox read, its rows handed on, then the batch deleted by their keys:
// a row published, emitted or sent before the delete (awaited or not) is work on it, so two
// replicas that read the same rows both hand them on. Not reported: a prune that only logs the rows
// or works out which to drop before deleting them.
import { ruleTester } from './rule-tester.js';
import { claim } from './claim-report.js';
import { requireAtomicClaim, type RequireAtomicClaimMessageIds } from '../../rules/require-atomic-claim.js';

const lines = (...l: string[]) => l.join('\n');
const rule = requireAtomicClaim as unknown as Parameters<typeof ruleTester.run<RequireAtomicClaimMessageIds, readonly unknown[]>>[1];

/** Kysely: the outbox read, `each` done per row in a loop, then the batch deleted by its ids. */
const relay = (each: string) =>
  lines(
    'export class OutboxRelay {',
    '  constructor(private readonly qb, private readonly bus, private readonly logger) {}',
    '  async scan() {',
    "    const rows = await this.qb.selectFrom('app_outbox').selectAll().limit(100).execute();",
    '    for (const row of rows) {',
    '      const event = JSON.parse(row.payload);',
    `      ${each}`,
    '    }',
    '    if (rows.length === 0) return;',
    "    await this.qb.deleteFrom('app_outbox').where('id', 'in', rows.map((r) => r.id)).execute();",
    '  }',
    '}',
  );

ruleTester.run('require-atomic-claim (outbox rows handed on, then deleted)', rule, {
  valid: [
    // only logged before the delete: a prune
    relay("this.logger.info('dropping', event);"),
    // nothing done with the row
    relay('void event;'),
  ],
  invalid: [
    // published, not awaited
    claim(relay('this.bus.publish(event.topic, event);'), 'selectFrom', 'status', 'this.qb.deleteFrom('),
    // emitted
    claim(relay("this.bus.emit('event', event);"), 'selectFrom', 'status', 'this.qb.deleteFrom('),
    // sent, awaited (awaited work counted before too)
    claim(relay('await this.bus.send(event);'), 'selectFrom', 'status', 'this.qb.deleteFrom('),
  ],
});
