// A value read from the database, changed in JavaScript and written back: with two requests or
// two replicas doing it at once, one update is lost. The walk itself is the taint engine
// (no-read-then-write/taint-engine.ts); this file pre-checks the text, wires the engine's
// listeners and reports its findings at the end of the file.
import { isMigrationExemptFile } from './migrations/exempt-file.js';
import { readAfterLockGate } from './no-read-then-write/lock-gate-first.js';
import { createRule, type DetectContext } from './utils/create-rule.js';
import { outsideOneOffCommands } from './migrations/exempt-file.js';
import { readUnderRowLock } from './no-read-then-write/row-locks-first.js';
import { readUnderTransactionLock } from './no-read-then-write/transaction-advisory-locks.js';
import { writesAnotherRow } from './no-read-then-write/another-row.js';
import { developmentOnly } from './no-read-then-write/development-only.js';
import { periodCounterChange } from './no-read-then-write/period-counters.js';
import { codeTextOf } from '../analysis/source/code-text.js';
import { LIBRARY_READS_WRITES, type DataLibrary } from '../src/knowledge/orm-reads-writes.js';
import type { ReadThenWriteFacts } from './no-read-then-write/model.js';
import {
  callsWriteInCode,
  hookWordOffsets,
  mentionsHelperReadAndWrite,
  mentionsReadAndWriteInCode,
  mentionsSaveHook,
  mentionsSaveHookInCode,
  mayCallRedisWrite,
  writeCallOffsets,
  writeWordOrRedisIn,
} from './no-read-then-write/mentions.js';
import { isDuplicateCopyFileName, isTestFilePath } from '../src/knowledge/file-conventions.js';
import { isLintedTestCode } from '../analysis/source/test-code.js';
import { SQL_WRITE_KEYWORD, sqlKeywordsIn } from './no-read-then-write/sql-site.js';
import { ReadThenWriteEngine, type EngineOptions, type ReadThenWriteFinding } from './no-read-then-write/taint-engine.js';
import { handedRowFindings, mayHandRow } from './no-read-then-write/parameter-rows.js';
import { inSerialisedSection } from './no-read-then-write/serialised-sections.js';
import { heldFromOtherWriters } from './no-read-then-write/held-rows.js';
import { maySendSql } from './no-read-then-write/write-candidates.js';
import { keyValueWriteOffsets, mayPutIntoKvBucket } from './no-read-then-write/kv-bucket-site.js';
import type { TokenLike } from '../analysis/source/string-text.js';
import { helperReadSiteOf, mayWriteAfter } from './no-read-then-write/helper-reads.js';
import { parameterWriteSiteOf } from './no-read-then-write/parameter-writes.js';
import { parameterChangesAt } from './no-read-then-write/helper-bound-changes.js';
import { mentionsRequestRow } from './no-read-then-write/request-rows.js';
import { mentionsSchemaMethod } from './no-read-then-write/schema-methods.js';
import { inMarkedUnit, walkWriteWindows, writeMarkers } from './no-read-then-write/write-windows.js';
import path from 'node:path';
import { isSeedFileName } from '../src/knowledge/highest-reads.js';
import { incrementedOperand, nextFromHighestOf, type NextFromHighest } from './no-read-then-write/next-from-highest.js';
import { mayBeRunningTotal, runningTotalOf, runningTotalSpan } from './no-read-then-write/running-totals.js';
import { allocatedNumberOf, type AllocatedNumber } from './no-read-then-write/allocated-numbers.js';
import { pushedEntryNumberOf } from './no-read-then-write/pushed-entries.js';
import { cachedHighestOf, cachedIncrementOf, isThisFieldAssignment } from './no-read-then-write/cached-highest.js';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { reportSpan, spanToWrite } from './no-read-then-write/report-span.js';

export type { DataLibrary } from '../src/knowledge/orm-reads-writes.js';
export type { FieldChange, ReadThenWriteFacts } from './no-read-then-write/model.js';

type MessageIds = DataLibrary | 'checkedThenChanged' | 'checkedStateChanged' | 'nextFromHighest' | 'nextFromCount';
type Options = [{ ignoreFields: string[] }];

const ATOMIC_PREFIX =
  '`{{field}}` is read, changed in JavaScript and written back; two requests or replicas doing this at once lose an update.';

const messages = {
  ...(Object.fromEntries(
    (Object.keys(LIBRARY_READS_WRITES) as DataLibrary[]).map((library) => [
      library,
      `${ATOMIC_PREFIX} Do the arithmetic in the database: ${LIBRARY_READS_WRITES[library].atomicForm}.`,
    ]),
  ) as Record<DataLibrary, string>),
  checkedThenChanged:
    "`{{field}}` is checked in JavaScript on the value read, then changed in the database without that bound; two requests or replicas both pass the check and together cross it (an overdraft, an oversold item, a limit exceeded). Put the bound in the write's filter (`{{field}} >= n` before taking n off) and act only when a row was changed.",
  checkedStateChanged:
    "`{{field}}` is checked in JavaScript on the row read, then set and saved without that condition; two requests or replicas both pass the check and both act (a pass admitted twice, a paid order cancelled). Put the checked state in the write's filter (an update `where: { id, {{field}}: <the state checked> }`, or a version column) and act only when a row was changed.",
  nextFromHighest:
    '`{{field}}` is the largest stored value plus one, then written; two requests or replicas read the same maximum and write the same `{{field}}` (a duplicate, or a unique violation that fails one of them). Let the database allocate it: a sequence or identity column, a counter row changed atomically (`UPDATE … SET n = n + 1 … RETURNING n`), or a retry on the unique violation.',
  nextFromCount:
    '`{{field}}` is made from the number of stored rows plus one, then written; two requests or replicas count the same rows and write the same `{{field}}` (a duplicate, or a unique violation that fails one of them). Let the database allocate it: a sequence or identity column, a counter row changed atomically (`UPDATE … SET n = n + 1 … RETURNING n`), or a retry on the unique violation.',
} satisfies Record<MessageIds, string>;

export const noReadThenWrite = createRule<MessageIds, Options, ReadThenWriteFacts>({
  name: 'no-read-then-write',
  meta: {
    type: 'problem',
    docs: {
      description:
        'Disallow reading a value from the database, changing it in JavaScript and writing it back (lost updates across requests and replicas)',
      recommended: true,
    },
    messages,
    schema: [
      {
        type: 'object',
        additionalProperties: false,
        properties: {
          ignoreFields: {
            type: 'array',
            items: { type: 'string' },
            uniqueItems: true,
            description: 'Column or field names never reported (values only one writer ever changes, such as a per-user cursor).',
          },
        },
      },
    ],
  },
  defaultOptions: [{ ignoreFields: [] }],
  detect(context, report) {
    const sourceCode = context.sourceCode;
    const text = sourceCode.text;
    // Most files hold no read and write the rule knows: skip them on the raw text (comments only
    // add words, so a word missing from it is missing from the code), before any AST work.
    const first = writeWordOrRedisIn(text);
    if (!first) return {};
    // Every finding is made at a write (a write method called, a save hook, SQL UPDATE sent, a Redis
    // write): a file whose raw text, comments too, holds none is done before its comments are read.
    const textWriteCalls = writeCallOffsets(text);
    // Without a write word, the first test passed on Redis's name.
    const redisWriteInText =
      (((!first.writeWord || first.redis()) && mayCallRedisWrite(text)) || mayPutIntoKvBucket(text)) && !isTestFilePath(context.filename);
    // Whether SQL UPDATE may be sent: asked only where the answer still decides (pure tests: their order changes no answer).
    let sendsUpdate: boolean | undefined;
    if (textWriteCalls.length === 0 && !redisWriteInText && !mentionsSaveHook(text) && !(sendsUpdate = maySendSqlUpdate(text))) return {};
    // Test code (one process, a throw-away database: a read, change and write-back loses nothing in
    // production) and a duplicate left beside a module (`invoices copy.js`, which nothing imports).
    if (isLintedTestCode(context) || isDuplicateCopyFileName(path.basename(context.filename))) return {};
    // The same words in the code alone: a match that starts in a comment does not count (the
    // parser's comment ranges say where they are; no comment-free copy of the text is made).
    const comments = (sourceCode.ast.comments ?? sourceCode.getAllComments()) as readonly TokenLike[];
    // Redis reads and writes count where the code names Redis and calls both (never in tests), NATS buckets' where it names NATS.
    const redisWrites = redisWriteInText ? keyValueWriteOffsets(text, comments) : [];
    const redis = redisWrites.length > 0;
    if (!redis && (!first.writeWord || !mentionsRowReadAndWrite(sourceCode, comments))) return {};
    const saveHook = mentionsSaveHook(text) && mentionsSaveHookInCode(text, comments);
    const writeCalls = redis ? [...textWriteCalls, ...redisWrites].sort((a, b) => a - b) : textWriteCalls;
    const callsWrite = callsWriteInCode(writeCalls, comments);
    // Every finding is made at a write. Without a write method called or a save hook, only SQL
    // UPDATE can be one: a file whose text holds the keyword but no call or tag that sends SQL is
    // done here, on its text (so is the codemod's text-only check: it parses no such file).
    if (!callsWrite && !saveHook && !(sendsUpdate ??= maySendSqlUpdate(text))) return {};
    // SQL is read from this file's strings: without the keyword in one, no call sends a SQL read
    // (or write), and the SQL text of each `query(…)` call need not be built to find out.
    const { sqlReads, sqlWrites } = sqlKeywordsIn(sourceCode);
    if (!sqlWrites && !callsWrite && !saveHook) return {};
    // A helper's read matters to a write (or a writing function's call: a marker) walked after it; SQL text anywhere or a save hook: every one.
    const writeOffsets = sqlWrites || saveHook ? undefined : writeCalls;
    const engineOptions: EngineOptions = {
      sourceCode,
      ignoredFields: new Set(context.options[0]?.ignoreFields ?? []),
      sqlReads,
      sqlWrites,
      helperReadOf: (call) => helperReadSiteOf(context, call),
      helperWriteOf: (call, tainted) => parameterWriteSiteOf(context, call, tainted),
      helperMayMatter: (call) => !writeOffsets || mayWriteAfter(markers ?? writeOffsets, call),
      helperChangesOf: (call) => parameterChangesAt(context, call),
      redis,
    };
    const engine = new ReadThenWriteEngine(engineOptions);
    // The engine walks only where a finding can be made (write-windows.ts); a file whose SQL
    // strings cannot be followed is walked whole, with ESLint's traversal.
    const markers = writeMarkers(sourceCode, writeCalls, saveHook ? hookWordOffsets(text) : [], sqlWrites);
    const listeners = engine.listeners();
    // `x + 1` sent in a write: a number allocated from the largest stored one (next-from-highest.ts), judged at the end.
    const increments: (TSESTree.BinaryExpression | TSESTree.UpdateExpression | TSESTree.AssignmentExpression)[] = [];
    // `this.next = …`: what a class's fields are given, for a maximum cached in one (cached-highest.ts).
    const thisAssignments: TSESTree.AssignmentExpression[] = [];
    // `this.bump(share)`: a read's row handed to a function of this file (parameter-rows.ts).
    const handingCalls: TSESTree.CallExpression[] = [];
    const engineCall = markers === null ? listeners.CallExpression : undefined;
    return {
      ...(markers === null ? listeners : {}),
      CallExpression(node: TSESTree.CallExpression) {
        engineCall?.(node);
        if (mayHandRow(node)) handingCalls.push(node);
      },
      'BinaryExpression[operator="+"], BinaryExpression[operator="-"]'(node: TSESTree.BinaryExpression) {
        if ((node.operator === '+' && incrementedOperand(node)) || mayBeRunningTotal(node)) increments.push(node);
      },
      // `++this.next`, `this.next += 1`: a number handed out from a maximum the process cached.
      'UpdateExpression[operator="++"], AssignmentExpression[operator="+="]'(
        node: TSESTree.UpdateExpression | TSESTree.AssignmentExpression,
      ) {
        if (cachedIncrementOf(node)) increments.push(node);
      },
      'AssignmentExpression[operator="="]'(node: TSESTree.AssignmentExpression) {
        if (isThisFieldAssignment(node)) thisAssignments.push(node);
      },
      'Program:exit'(program: TSESTree.Program) {
        let findings;
        try {
          if (markers !== null) walkWriteWindows(program, listeners, sourceCode.visitorKeys, markers);
          // A value that goes to another row than the one read (another-row.ts) is not written back.
          const keep = (facts: ReadThenWriteFacts): boolean =>
            !writesAnotherRow(facts, context) && !periodCounterChange(facts, sourceCode.visitorKeys);
          findings = engine.findings(keep);
          const reported = new Set(findings.map(placeOf));
          const mayWrite = (fn: TSESTree.Node): boolean => markers === null || inMarkedUnit(markers, fn);
          for (const handed of handedRowFindings(handingCalls, engineOptions, keep, mayWrite)) {
            if (!reported.has(placeOf(handed))) findings.push(handed);
            reported.add(placeOf(handed));
          }
        } catch {
          return; // a shape we did not foresee never breaks linting
        }
        // A one-off command an operator runs by hand is one process, once: nothing races it.
        const reportHere = outsideOneOffCommands(context, report);
        for (const finding of findings) {
          if (raceExcluded(finding.facts, context)) continue;
          reportHere({
            messageId: messageIdOf(finding),
            data: { field: finding.field },
            node: finding.node,
            loc: reportSpan(finding),
            facts: finding.facts,
          });
        }
        // Seed data (`task.seed.ts`) is filled once, by one process.
        const seeds = isSeedFileName(path.basename(context.filename));
        for (const next of seeds ? [] : nextNumbers(increments, thisAssignments, sourceCode)) {
          if (developmentOnly(next.write)) continue;
          const at = { node: next.value, loc: next.running ? runningTotalSpan(next) : spanToWrite(next.value, next.write) };
          const messageId = next.running ? next.library : next.counted ? 'nextFromCount' : 'nextFromHighest';
          reportHere({ messageId, data: { field: next.field }, ...at, facts: nextFacts(next) });
        }
      },
    };
  },
});

/** Whether the text may send SQL UPDATE: the keyword, and a call or tag that sends SQL. */
const maySendSqlUpdate = (text: string): boolean => SQL_WRITE_KEYWORD.test(text) && maySendSql(text);

/** A read and a write in the code, a helper's read and a write, a request's row (`req.user`) and a write, or a schema's instance method. */
function mentionsRowReadAndWrite(sourceCode: Readonly<TSESLint.SourceCode>, comments: readonly TokenLike[]): boolean {
  const text = sourceCode.text;
  return (
    mentionsReadAndWriteInCode(text, comments, () => codeTextOf(sourceCode)) ||
    mentionsHelperReadAndWrite(text) ||
    mentionsRequestRow(text) ||
    mentionsSchemaMethod(text)
  );
}

/** Whether the file shows that no second writer can race this read and write (asked of findings only). */
function raceExcluded(facts: ReadThenWriteFacts, context: DetectContext): boolean {
  const sourceCode = context.sourceCode;
  return (
    // Read by the key of a row its transaction locked first (row-locks-first.ts).
    readUnderRowLock(facts.read, context) ||
    // Read after its transaction took an advisory transaction lock (transaction-advisory-locks.ts).
    readUnderTransactionLock(facts.read, context) ||
    // Read only after the function won a distributed lock (lock-gate-first.ts): a single writer.
    readAfterLockGate(facts.read) ||
    // Read and written in one callback of a named lock or a SERIALIZABLE transaction (serialised-sections.ts).
    inSerialisedSection(facts.read, facts.write, sourceCode) ||
    // In one MongoDB transaction, or on a row every caller claimed first (held-rows.ts).
    heldFromOtherWriters(facts, sourceCode) ||
    // Written only outside production (development-only.ts): no deployment's replicas race it.
    developmentOnly(facts.write) ||
    // A state moved in a migration or another file that runs once (exempt-file.ts): one process, once.
    (facts.checkedState === true && isMigrationExemptFile(context))
  );
}

/** A state checked then set (checked-states.ts), a bound checked then crossed, or a value read, changed and written back. */
const messageIdOf = ({ facts, library }: ReadThenWriteFinding): MessageIds =>
  facts.checkedState ? 'checkedStateChanged' : facts.checkedBound ? 'checkedThenChanged' : library;

/** Where a finding is reported (line and column), to report each place once. */
const placeOf = (finding: ReadThenWriteFinding): string => {
  const at = finding.loc ?? finding.node.loc;
  return `${at.start.line}:${at.start.column}`;
};

/** The max-plus-one allocations among `increments`, one per write; a shape not foreseen is skipped. */
function nextNumbers(
  increments: readonly (TSESTree.BinaryExpression | TSESTree.UpdateExpression | TSESTree.AssignmentExpression)[],
  thisAssignments: readonly TSESTree.AssignmentExpression[],
  sourceCode: Parameters<typeof nextFromHighestOf>[1],
): AllocatedNumber[] {
  const found: AllocatedNumber[] = [];
  for (const node of increments) {
    try {
      const next =
        node.type === 'BinaryExpression'
          ? (nextFromHighestOf(node, sourceCode) ??
            runningTotalOf(node, sourceCode) ??
            allocatedNumberOf(node, sourceCode) ??
            pushedEntryNumberOf(node, sourceCode))
          : cachedHighestOf(node, sourceCode, thisAssignments);
      if (next && !found.some((f) => f.write === next.write)) found.push(next);
    } catch {
      // a shape we did not foresee never breaks linting
    }
  }
  return found;
}

/** The facts of a max-plus-one: no increment the codemod could write (it leaves a manual marker). */
function nextFacts(next: NextFromHighest): ReadThenWriteFacts {
  const change = { field: next.field, node: next.value, operator: null, operand: null };
  return {
    library: next.library,
    read: next.read,
    write: next.write,
    writeShape: {
      method: 'create',
      nameNode: next.write.type === 'CallExpression' ? next.write.callee : next.write,
      data: undefined,
      filter: undefined,
    },
    model: null,
    fields: [next.field],
    changes: [change],
    operator: null,
    operand: null,
    boundCheck: null,
    guarded: false,
    nextFromHighest: true,
  };
}

export default noReadThenWrite;
