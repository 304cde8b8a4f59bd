// require-atomic-claim when each row is claimed by a checked conditional transition before the
// rest of its work: the writes after the claim (its child rows deleted, its totals stored) act on a
// row this replica won. A write before the claim still races.
import { ruleTester } from './rule-tester.js';
import { requireAtomicClaim, type RequireAtomicClaimMessageIds } from '../../rules/require-atomic-claim.js';

const lines = (...l: string[]) => l.join('\n');
const rule = requireAtomicClaim as unknown as Parameters<typeof ruleTester.run<RequireAtomicClaimMessageIds, readonly unknown[]>>[1];

/** A sweep of finished exports: each is archived (`status` completed → archived) and its parts deleted, in `body` order. */
const sweep = (...body: string[]) =>
  lines(
    "import { and, eq } from 'drizzle-orm';",
    "import { exportParts, exports } from './schema';",
    'export async function archiveFinished(db) {',
    "  const finished = await db.select({ id: exports.id }).from(exports).where(eq(exports.status, 'completed'));",
    '  for (const item of finished) {',
    '    await db.transaction(async (tx) => {',
    ...body.map((l) => `      ${l}`),
    '    });',
    '  }',
    '}',
  );
const CLAIM = [
  "const result = await tx.update(exports).set({ status: 'archived' }).where(and(eq(exports.id, item.id), eq(exports.status, 'completed')));",
  'if (result.changes === 0) return false;',
];
const DELETE_PARTS = 'await tx.delete(exportParts).where(eq(exportParts.exportId, item.id));';

ruleTester.run('require-atomic-claim (claimed before the rest of the work)', rule, {
  valid: [sweep(...CLAIM, DELETE_PARTS, 'return true;')],
  invalid: [
    {
      code: sweep(DELETE_PARTS, ...CLAIM, 'return true;'),
      errors: [{ messageId: 'nonAtomicClaim', data: { column: 'status', markedAt: '' }, line: 4, column: 29 }],
    },
  ],
});
