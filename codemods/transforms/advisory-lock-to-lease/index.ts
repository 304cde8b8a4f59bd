// `advisory-lock-to-lease`: for each finding of `no-session-advisory-lock`, take the session lock
// out of the PgBouncer path. The try-lock / early return / work / unlock shape (and a blocking lock
// used as a mutex) becomes `await runExclusive('<service>:<job>', <ttl>, async (signal) => { work })`
// with the lock, the early return and the unlock removed — a Redis lease with an owner token does
// not depend on which server connection a statement lands on. A lock taken inside a transaction on
// one client becomes the transaction-level function (released at COMMIT) and its unlock goes.
// Anything else gets a manual marker.
import type { TSESTree } from '@typescript-eslint/utils';
import type { Finding } from '../../../rules/utils/create-rule.js';
import noSessionAdvisoryLock, { type NoSessionAdvisoryLockFacts } from '../../../rules/no-session-advisory-lock.js';
import { leaseKey } from '../../../rules/rewrites/guard-statement.js';
import { jobName as kebabJobName } from '../../../rules/rewrites/job-name.js';
import { runtimeImport } from '../../../rules/rewrites/runtime-import.js';
import { functionNameOf } from '../../../analysis/sql/enclosing-function.js';
import { SESSION_LOCK_LIBRARIES } from '../../../src/knowledge/lock-libraries.js';
import { SESSION_ADVISORY_LOCK_FUNCTIONS } from '../../../src/knowledge/sql.js';
import { leaseShape, type LeaseShape } from './lease-shape.js';
import { contains, isCallStatement, removalEdit } from '../../engine/statements.js';
import { indentationAt, quoted } from '../../engine/file-style.js';
import { leaseClientWiring } from '../../engine/lease-client-wiring.js';
import type { ManualNote, SourceFileInfo, TextEdit, Transform, TransformOutput } from '../../engine/transform.js';

type Facts = NoSessionAdvisoryLockFacts;
type FunctionNode = NonNullable<Facts['enclosingFunction']>;

/** The lease ttl when `--ttl` is not given: long enough for most jobs, renewed every ttl/3 while they run. */
export const DEFAULT_LEASE_TTL_MS = 60_000;
export const EXCLUSIVE_GUARD = 'runExclusive';

/** `60000` → `60_000`, as people write durations. */
export function ttlText(ms: number): string {
  return String(ms).replace(/\B(?=(\d{3})+(?!\d))/g, '_');
}

/** The job name in the lease key, kebab-case like guard-schedules': the function's name, else the file's (the engine qualifies repeats; no line number, which would change when code moves). */
function jobName(fn: FunctionNode, file: SourceFileInfo): string {
  const name = functionNameOf(fn);
  return (name && kebabJobName(name)) ?? kebabJobName(file.path.replace(/^.*[\\/]/, '').replace(/\.[^.]+$/, '')) ?? 'job';
}

/** `await runExclusive(…, async (signal) => {` … `});` around the work, the lock and unlock gone. */
function leaseEdits(shape: LeaseShape, file: SourceFileInfo, call: string): TextEdit[] {
  const { text, style } = file;
  const semi = style.semicolons ? ';' : '';
  // When the function did more than `return` without the lock, or returns the work's value, the
  // result is kept: `if (!lease.ran) <what it did>`, then `return lease.value`.
  const result = /\blease\b/.test(text.slice(shape.body.range[0], shape.body.range[1])) ? 'leaseResult' : 'lease';
  const kept = shape.exit !== undefined || shape.returnsValue;
  const header = `${kept ? `const ${result} = ` : ''}await ${call}`;
  const indent = indentationAt(text, shape.lock.range[0]);
  const exit = shape.exit ? `${style.eol}${indent}if (!${result}.ran) ${text.slice(shape.exit.range[0], shape.exit.range[1])}` : '';
  const tail = `${exit}${shape.returnsValue ? `${style.eol}${indent}return ${result}.value${semi}` : ''}`;
  if (shape.tryStatement) {
    // The try block's braces become the callback's: the work keeps its text and indentation.
    const block = shape.tryStatement.block;
    return [
      { start: shape.lock.range[0], end: block.range[0] + 1, text: header },
      { start: block.range[1] - 1, end: shape.tryStatement.range[1], text: `})${semi}${tail}` },
    ];
  }
  // Lock; work; unlock at one level: the work moves one level in.
  const first = shape.work[0]!;
  const last = shape.work[shape.work.length - 1]!;
  const firstLine = text.lastIndexOf('\n', first.range[0] - 1) + 1;
  const edits: TextEdit[] = [{ start: shape.lock.range[0], end: firstLine, text: `${header}${style.eol}` }];
  for (let offset = firstLine; offset < last.range[1];) {
    const lineEnd = text.indexOf('\n', offset);
    if (text.slice(offset, lineEnd === -1 ? undefined : lineEnd).trim().length > 0)
      edits.push({ start: offset, end: offset, text: style.indentUnit });
    if (lineEnd === -1) break;
    offset = lineEnd + 1;
  }
  edits.push({ start: last.range[1], end: shape.unlock.range[1], text: `${style.eol}${indent}})${semi}${tail}` });
  return edits;
}

/** Whether the work holds a template literal spanning lines (moving it in would change its text). */
function hasMultilineTemplate(shape: LeaseShape, text: string): boolean {
  const first = shape.work[0]!;
  const last = shape.work[shape.work.length - 1]!;
  return /`[^`]*\n[^`]*`/.test(text.slice(first.range[0], last.range[1]));
}

/**
 * The module-level `const LOCK_SQL = '…'` a removed call sent, when nothing else reads it: it would
 * go on being reported as SQL text.
 */
function unusedSqlConstant(
  facts: Facts,
  removed: ReadonlyArray<{ range: readonly [number, number] }>,
  file: SourceFileInfo,
): TSESTree.VariableDeclaration | undefined {
  if (!facts.lockCall || contains(facts.lockCall, facts.sqlNode.range[0])) return undefined;
  let declarator: TSESTree.Node | undefined = facts.sqlNode;
  while (declarator && declarator.type !== 'VariableDeclarator') declarator = declarator.parent;
  const declaration = declarator?.parent;
  if (!declarator || declaration?.type !== 'VariableDeclaration' || declaration.declarations.length !== 1) return undefined;
  if (declaration.parent?.type === 'ExportNamedDeclaration') return undefined;
  const variables = file.sourceCode.getDeclaredVariables(declarator);
  const readsElsewhere = variables.some((v) =>
    v.references.some((r) => r.isRead() && !removed.some((node) => contains(node, r.identifier.range[0]))),
  );
  return readsElsewhere ? undefined : declaration;
}

/** Edits that make every lock in a transaction the xact form and drop the unlocks; or why not. */
function xactEdits(
  locks: Finding<string, Facts>[],
  unlocks: Finding<string, Facts>[],
  file: SourceFileInfo,
): { edits: TextEdit[]; removed: TSESTree.Node[] } | { manual: string } {
  const edits: TextEdit[] = [];
  const removed: TSESTree.Node[] = [];
  for (const lock of locks) {
    const { functionNameRange, xactFunctionName } = lock.facts;
    if (!functionNameRange || !xactFunctionName)
      return { manual: 'the lock function name is not written verbatim in the SQL; use the transaction-level lock by hand' };
    edits.push({ start: functionNameRange[0], end: functionNameRange[1], text: xactFunctionName });
  }
  const clients = new Set(locks.map((l) => l.facts.clientText));
  for (const unlock of unlocks) {
    const call = unlock.facts.lockCall;
    if (!call || !clients.has(unlock.facts.clientText))
      return { manual: 'the unlock is sent on another client than the transaction lock; remove it by hand' };
    const statement = call.parent?.type === 'AwaitExpression' ? call.parent.parent : call.parent;
    if (!statement || !isCallStatement(statement, call))
      return { manual: 'the unlock is part of a larger statement; remove it by hand (COMMIT releases the lock)' };
    const block = statement.parent;
    const tryStatement = block?.parent;
    if (
      block?.type === 'BlockStatement' &&
      block.body.length === 1 &&
      tryStatement?.type === 'TryStatement' &&
      tryStatement.finalizer === block
    ) {
      // `finally { unlock }` alone: the whole finally clause goes (a try needs a catch to stand without it).
      if (!tryStatement.handler)
        return { manual: 'the unlock is the only statement of a finally with no catch; remove it by hand (COMMIT releases the lock)' };
      edits.push({ start: tryStatement.handler.range[1], end: block.range[1], text: '' });
      removed.push(block);
      continue;
    }
    edits.push(removalEdit(file.text, statement));
    removed.push(statement);
  }
  return { edits, removed };
}

export const ADVISORY_LOCK_PREFILTER: readonly string[] = [
  ...Object.keys(SESSION_ADVISORY_LOCK_FUNCTIONS).flatMap((name) => [name, name.toUpperCase()]),
  // A lock library's mutex writes no SQL in the file: its package name is the text to look for.
  ...SESSION_LOCK_LIBRARIES.map((library) => library.module),
];

export const advisoryLockToLease: Transform<Facts> = {
  name: 'advisory-lock-to-lease',
  rule: noSessionAdvisoryLock,
  description:
    "Replace session advisory locks: lock / early return / work / unlock becomes `runExclusive('<service>:<job>', <ttl>, async (signal) => { … })`; a lock inside a transaction becomes pg_advisory_xact_lock.",
  prefilter: ADVISORY_LOCK_PREFILTER,

  apply(file, findings, context): TransformOutput {
    const edits: TextEdit[] = [];
    const manual: ManualNote[] = [];
    const removed: Array<{ range: readonly [number, number] }> = [];
    const removedFacts: Facts[] = [];
    const callee = runtimeImport(file.sourceCode, file.path, EXCLUSIVE_GUARD).callee;
    const ttl = ttlText(context.ttlMs ?? DEFAULT_LEASE_TTL_MS);
    const byFunction = new Map<FunctionNode | undefined, Finding<string, Facts>[]>();
    for (const finding of findings) {
      const group = byFunction.get(finding.facts.enclosingFunction) ?? [];
      group.push(finding);
      byFunction.set(finding.facts.enclosingFunction, group);
    }
    let usesGuard = false;
    for (const [fn, group] of byFunction) {
      const note = (reason: string): void => {
        for (const f of group) manual.push({ offset: f.node.range[0], reason });
      };
      const library = group.find((f) => f.facts.library !== undefined)?.facts.library;
      if (library !== undefined) {
        note(`a lock taken through ${library}'s mutex; replace the mutex with a lease (runExclusive) by hand`);
        continue;
      }
      const locks = group.filter((f) => f.facts.kind !== 'unlock');
      const unlocks = group.filter((f) => f.facts.kind === 'unlock');
      if (!fn) {
        note(
          'a session advisory lock at module level; take a lease (runExclusive) around the work, or the xact lock inside a transaction, by hand',
        );
        continue;
      }
      if (locks.length > 0 && locks.every((l) => l.facts.inTransaction)) {
        const result = xactEdits(locks, unlocks, file);
        if ('manual' in result) note(result.manual);
        else {
          edits.push(...result.edits);
          removed.push(...result.removed);
        }
        continue;
      }
      if (locks.length !== 1 || unlocks.length > 1) {
        note(
          locks.length === 0
            ? 'an unlock without its lock in this function; replace the lock and its unlock with runExclusive by hand'
            : 'more than one lock or unlock in this function; rewrite it to runExclusive by hand',
        );
        continue;
      }
      const lock = locks[0]!;
      if (lock.facts.shared) {
        note('a shared advisory lock lets holders run together, a lease is exclusive; choose the replacement by hand');
        continue;
      }
      if (lock.facts.inTransaction) {
        note('one function with locks inside and outside a transaction; rewrite it by hand');
        continue;
      }
      const shape = leaseShape(fn, lock.facts, unlocks[0]?.facts, file.sourceCode);
      if ('manual' in shape) {
        note(shape.manual);
        continue;
      }
      if (!shape.tryStatement && hasMultilineTemplate(shape, file.text)) {
        note('the work holds a multi-line template literal that would change if re-indented; wrap it in runExclusive by hand');
        continue;
      }
      const call = `${callee}(${quoted(leaseKey(context.service, jobName(fn, file)), file.style.quote)}, ${ttl}, async (signal) => {`;
      edits.push(...leaseEdits(shape, file, call));
      removed.push(shape.lock, shape.unlock);
      removedFacts.push(lock.facts, unlocks[0]!.facts);
      usesGuard = true;
    }
    // Constants that only held the removed SQL go too (xact rewrites keep their calls, so only lease ones).
    const constants = new Set<TSESTree.VariableDeclaration>();
    for (const facts of removedFacts) {
      const declaration = unusedSqlConstant(facts, removed, file);
      if (declaration) constants.add(declaration);
    }
    for (const declaration of constants) edits.push(removalEdit(file.text, declaration));
    return { edits, imports: usesGuard && callee === EXCLUSIVE_GUARD ? [EXCLUSIVE_GUARD] : [], manual };
  },

  // Only files that now use a guard need the lease client (an xact rewrite needs none).
  project: (view) => leaseClientWiring({ ...view, fixed: 0 }),
};
