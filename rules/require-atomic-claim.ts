// A worker that reads pending rows and then acts on each one and marks it by id runs on every
// replica: two replicas read the same pending rows before either marks them, and both act (two
// emails, two charges, two publishes). The read must claim the rows (`FOR UPDATE SKIP LOCKED`,
// or `claimRows`), or the update must be a conditional transition whose row count decides
// whether this replica acts.
import type { TSESTree } from '@typescript-eslint/utils';
import { createRule } from './utils/create-rule.js';
import { isMigrationExemptFile } from './migrations/exempt-file.js';
import { outsideOneOffsButWorkers } from './require-atomic-claim/exported-worker.js';
import { claimCallListener } from './require-atomic-claim/call-listener.js';
import {
  pendingReadOf,
  type ClaimVocabulary,
  type DatabaseCall,
  type PendingRead,
  type RowUpdate,
} from './require-atomic-claim/claim-shapes.js';
import { FILTER_METHOD, READ_METHODS, SQL_METHODS } from '../src/knowledge/sql.js';
import { isOutermostCall } from '../analysis/sql/method-chain.js';
import { enclosingFunction, type FunctionNode } from '../analysis/sql/enclosing-function.js';
import { notAClaimCheck } from './require-atomic-claim/not-a-claim.js';
import { isSubqueryOnly } from './require-atomic-claim/subquery.js';
import { readsPrismaOnHostDatabase } from './require-atomic-claim/host-database.js';
import { unsafeUpdatesIn, workRegions } from './require-atomic-claim/work-regions.js';
import { pairedMark } from './require-atomic-claim/paired-helpers.js';
import { claimSpan } from './require-atomic-claim/mark-span.js'; // a claim spans from the read to the write in its function marking its rows
import { rowFollowers } from './require-atomic-claim/row-followers.js';
import { handsBackLetGoLock } from './require-atomic-claim/handed-back-locks.js';
import { mayReadPendingThroughHelper, pendingHelperReadOf } from './require-atomic-claim/helper-pairs.js';
import { createWhenAbsent } from './require-atomic-claim/not-a-claim.js';
import { guardLookup, heldUnderGuard } from './require-atomic-claim/held-under-guard.js';
import { flagClaimOf, type FlagClaim } from './require-atomic-claim/flag-claims.js';
import { makesPairedFlagClaim, withPairedFlags } from './require-atomic-claim/flag-pairs.js';
import { admittedShapes } from './require-atomic-claim/admission.js';
import { decidedByDatabase, markerReadOf, serializable } from './require-atomic-claim/marker-claims.js';
import path from 'node:path';
import { isDuplicateCopyFileName } from '../src/knowledge/file-conventions.js';

export type RequireAtomicClaimMessageIds = 'nonAtomicClaim' | 'findThenCreateClaim' | 'checkedFlagClaim';

export type RequireAtomicClaimOptions = [Partial<ClaimVocabulary>];

/** What a rewrite to `claimRows` needs. */
export interface RequireAtomicClaimFacts {
  /** The read of pending rows (the call or tagged template). */
  read: DatabaseCall;
  readKind: 'sql' | 'builder';
  /** The table / model read, and the status-like column filtered on, when known. */
  table: string | undefined;
  statusColumn: string | undefined;
  /** The loop acting on each row (`for…of`, `.forEach`, `.map`), or `undefined` for a single row. */
  loop: TSESTree.Node | undefined;
  /** The first update of an acted-on row that is not a checked conditional transition; for a find-then-create claim, the create. */
  update: DatabaseCall;
  enclosingFunction: FunctionNode | undefined;
}

/** Reports `read` marked by `update` (in `loop`, in `fn`), with the marks in source order when they were followed (`later`). */
type ReadReport = (
  read: PendingRead,
  update: DatabaseCall,
  loop: TSESTree.Node | undefined,
  fn: FunctionNode | undefined,
  later?: readonly RowUpdate[],
) => void;

/** A migration or migrate entrypoint runs once per deploy; a duplicate left beside a module (`invoices copy.js`) is imported by none. */
const runsOnceOrNowhere = (context: Parameters<typeof isMigrationExemptFile>[0]): boolean =>
  isMigrationExemptFile(context) || isDuplicateCopyFileName(path.basename(context.filename));

export const requireAtomicClaim = createRule<RequireAtomicClaimMessageIds, RequireAtomicClaimOptions, RequireAtomicClaimFacts>({
  name: 'require-atomic-claim',
  meta: {
    type: 'problem',
    docs: {
      description:
        'Require workers to claim pending rows atomically (`FOR UPDATE SKIP LOCKED` or a checked conditional transition) before acting on them',
      recommended: true,
    },
    messages: {
      nonAtomicClaim:
        'This reads pending rows, then acts on each and updates it by id{{markedAt}}, but the read takes no row locks and the update does not re-check the state: every replica reads the same rows and acts on them twice. Claim them in one statement with `claimRows` from replica-guard (`UPDATE … WHERE id IN (SELECT … FOR UPDATE SKIP LOCKED) RETURNING …`), or update with `… AND {{column}} = <pending>` and act only when the row count says this replica changed the row. One statement is safe through a pool and PgBouncer; a separate `SELECT … FOR UPDATE SKIP LOCKED` holds its row locks only until its transaction ends, which through a pool or PgBouncer is the end of that statement.',
      findThenCreateClaim:
        'This looks up a `{{table}}` record and creates it when none is found, so that the work it marks happens once; but two replicas (or two deliveries) both find none, both create it and both do the work — a transaction does not stop this under READ COMMITTED. Let the database decide: a unique key on what identifies the work, an insert that does nothing on a conflict (`INSERT … ON CONFLICT DO NOTHING`, `createMany({ skipDuplicates: true })`, or the unique violation caught) and the work done only when this replica inserted the row — or `claimOnce` / `claimPeriod` from replica-guard.',
      checkedFlagClaim:
        '`{{column}}` is checked on the row read, then set in a second statement: two replicas (or two requests) both read it unset, both set it and both run. Set it in one conditional statement (`UPDATE … SET {{column}} = … WHERE id = $1 AND <not {{column}}>`, Prisma `updateMany` with the flag in `where`) and run only when the row count says this replica changed the row, or run under a lease (`runExclusive` from replica-guard).',
    },
    schema: [
      {
        type: 'object',
        additionalProperties: false,
        properties: {
          statusColumns: {
            type: 'array',
            items: { type: 'string' },
            description:
              "Extra column / field names that hold a row's state, in addition to the built-in status-like names (status, state, processed_at, sent_at, …).",
          },
          queueTables: {
            type: 'array',
            items: { type: 'string' },
            description:
              'Extra table / model names that are work queues, in addition to the built-in queue-like names (outbox, inbox, queue, jobs, tasks, …).',
          },
        },
      },
    ],
  },
  defaultOptions: [{ statusColumns: [], queueTables: [] }],
  detect(context, reportFinding) {
    // Migration files run once per deploy, from the migrate entrypoint: their reads and updates
    // are one-shot data changes, not a worker racing other replicas.
    const sourceCode = context.sourceCode;
    const own: ClaimVocabulary = {
      statusColumns: context.options[0]?.statusColumns ?? [],
      queueTables: context.options[0]?.queueTables ?? [],
    };
    const admitted = admittedShapes(sourceCode, [...own.statusColumns, ...own.queueTables]);
    if (!admitted) return {};
    const { claims, flags, paired } = admitted;
    // A flag the file filters `false` and writes `true` is a state of its own (flag-pairs.ts).
    const vocabulary = withPairedFlags(own, paired);
    // A one-off command an operator runs by hand is one process, once: nothing races it (a worker's module that also starts itself does not count).
    const reportOutsideOneOffs = outsideOneOffsButWorkers(context, reportFinding);
    // The role is asked at the first finding: most files that collect a call report nothing, and need no role.
    let exempt: boolean | undefined;
    const report: typeof reportFinding = (finding) => void ((exempt ??= runsOnceOrNowhere(context)) || reportOutsideOneOffs(finding));
    const reads: PendingRead[] = [];
    const markerReads: PendingRead[] = [];
    const seen = new Set<TSESTree.Node>();
    const collect = (node: DatabaseCall): void => {
      if (seen.has(node)) return;
      seen.add(node);
      const read = claims ? (pendingReadOf(node, sourceCode, vocabulary) ?? pendingHelperReadOf(node, context)) : undefined;
      if (read) reads.push(read);
      // A status-filtered lookup of run records (`status: { in: ['queued', 'running'] }`) is both.
      const marker = admitted.markers() ? markerReadOf(node, sourceCode) : undefined;
      if (marker) markerReads.push(marker);
    };
    /** A builder chain is looked at once, from its outermost call, and only when it has a read or filter link. */
    const collectCall = (node: TSESTree.CallExpression): void => {
      const callee = node.callee;
      const name =
        callee.type === 'MemberExpression' && !callee.computed && callee.property.type === 'Identifier' ? callee.property.name : undefined;
      if (name === undefined) return;
      if (SQL_METHODS.has(name) || mayReadPendingThroughHelper(name)) return collect(node);
      if (!READ_METHODS.has(name) && !FILTER_METHOD.test(name)) return;
      let outer: TSESTree.CallExpression = node;
      while (!isOutermostCall(outer)) {
        let up: TSESTree.Node | undefined = outer.parent;
        while (up && up.type !== 'CallExpression') up = up.parent;
        if (!up) break;
        outer = up;
      }
      collect(outer);
    };
    const notAClaim = notAClaimCheck(context, vocabulary);

    return {
      // One listener for the calls, in the order of the selectors it replaces (call-listener.ts). Unique reads are no pending
      // reads, but the row they load (or a loader of this file loads) may carry a running flag (flag-claims.ts); `getParcels()`
      // imported from a queue's module is collected only when it is such a read (helper-pairs.ts).
      CallExpression: claimCallListener({
        importedRead: (node) => void (claims && pendingHelperReadOf(node, context) && collect(node)),
        memberCall: collectCall,
        plainQuery: collect, // `query("SELECT …")` through a project's own function
        oneRowRead: (node) => void (flags && seen.add(node)),
      }),
      TaggedTemplateExpression: collect,
      'Program:exit'() {
        if (seen.size === 0) return;
        const reported = new Set<TSESTree.Node>();
        const reportRead: ReadReport = (read, update, loop, fn, later = []) => {
          const marker = markerReads.includes(read);
          reported.add(read.node);
          // A Prisma client on the package's SQLite file: no second replica shares the database.
          if (readsPrismaOnHostDatabase(read.node, context.filename)) return;
          const { loc, markedAt } = marker ? { loc: read.loc, markedAt: '' } : claimSpan(read, update, fn, sourceCode, vocabulary, later);
          report({
            messageId: marker ? 'findThenCreateClaim' : 'nonAtomicClaim',
            data: marker ? { table: read.table ?? 'marker' } : { column: read.statusColumn ?? 'status', markedAt },
            ...(loc ? { node: read.reportNode, loc } : { node: read.reportNode }),
            facts: {
              read: read.node,
              readKind: read.kind,
              table: read.table,
              statusColumn: read.statusColumn,
              loop,
              update,
              enclosingFunction: fn,
            },
          });
        };
        for (const read of reads) {
          if (isSubqueryOnly(read, sourceCode)) continue;
          const fn = enclosingFunction(read.node);
          const scope = fn ? fn.body : sourceCode.ast;
          for (const region of workRegions(read, scope, sourceCode)) {
            const updates = unsafeUpdatesIn(region, sourceCode, vocabulary, read.named, rowFollowers(read, context));
            const update = updates.next().value; // the marks after it are looked for only when it is reported
            if (!update || notAClaim(read, region, scope, update.node) || !makesPairedFlagClaim(read, paired, own, sourceCode)) continue;
            reportRead(read, update.node, region.loop, fn, [update, ...updates]);
            break;
          }
          // A data module's helper that hands out the pending rows, and another that marks one by its key (paired-helpers.ts);
          // rows locked, the lock let go at once, and the rows handed back to the caller (handed-back-locks.ts).
          const mark = reported.has(read.node) ? undefined : pairedMark(read, seen, sourceCode, vocabulary);
          if (mark) reportRead(read, mark.node, undefined, fn);
          const handedBack = reported.has(read.node) ? undefined : handsBackLetGoLock(read, sourceCode);
          if (handedBack) reportRead(handedBack, read.node, undefined, fn);
        }
        // A running flag checked on the row read, then set in a second statement (flag-claims.ts).
        let guard: ((call: TSESTree.CallExpression) => boolean) | undefined;
        const isGuard = (call: TSESTree.CallExpression): boolean => (guard ??= guardLookup(context))(call);
        if (flags)
          reportFlagClaims(seen, reported, context, (claim) => !heldUnderGuard(claim.read, { context, vocabulary }, isGuard), report);
        if (markerReads.length === 0) return;
        for (const read of markerReads) {
          const fn = enclosingFunction(read.node);
          const create = createWhenAbsent(read, fn ? fn.body : sourceCode.ast, context);
          if (reported.has(read.node) || !create || decidedByDatabase(create, sourceCode) || serializable(read.node, sourceCode)) continue;
          if (!heldUnderGuard(read.node, { context, vocabulary }, isGuard)) reportRead(read, create, undefined, fn);
        }
      },
    };
  },
});

/** Reports each flag claim among the collected reads not reported already, that `unguarded` keeps. */
function reportFlagClaims(
  seen: ReadonlySet<TSESTree.Node>,
  reported: ReadonlySet<TSESTree.Node>,
  context: Parameters<typeof flagClaimOf>[1],
  unguarded: (claim: FlagClaim) => boolean,
  report: (descriptor: {
    messageId: 'checkedFlagClaim';
    data: { column: string };
    node: TSESTree.Node;
    facts: RequireAtomicClaimFacts;
  }) => void,
): void {
  for (const node of seen) {
    if (reported.has(node) || node.type !== 'CallExpression') continue;
    let claim: FlagClaim | undefined;
    try {
      claim = flagClaimOf(node, context);
    } catch {
      continue; // a shape we did not foresee never breaks linting
    }
    if (!claim || !unguarded(claim)) continue;
    const callee = (claim.atRead ? claim.read : claim.set).callee;
    report({
      messageId: 'checkedFlagClaim',
      data: { column: claim.column },
      node: callee.type === 'MemberExpression' ? callee.property : callee,
      facts: {
        read: claim.read,
        readKind: 'builder',
        table: undefined,
        statusColumn: claim.column,
        loop: undefined,
        update: claim.set,
        enclosingFunction: enclosingFunction(claim.read),
      },
    });
  }
}

export default requireAtomicClaim;
