// A call in scheduled work that claims what the work does, so one replica does it: SQL that claims
// rows kept in a `const` (`pool.query(CLAIM, …)` with `const CLAIM = '… FOR UPDATE SKIP LOCKED'`), a
// call the module knows takes items atomically, a lease taken first and the work left when it was
// lost, and — when nothing was written or sent before it — a claim of each item by a marker insert
// or a database lock tried first (try-lock-gate.ts).
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { constantInitializer } from '../sql/sql-text-model.js';
import { isItemClaim } from './item-claim.js';
import { isLeaseGate } from './lease-gate.js';
import { isTryLockGate } from './try-lock-gate.js';
import { isClaimSql } from './work-intent.js';
import { claimsByAnswer, type FollowClaimAnswer } from './claim-answer.js';
import { handsBegunClient, type FollowRowLock } from './row-lock-helper.js';
import type { FunctionLike } from './work-function.js';

/** Whether a file's text can hold claiming SQL at all: asked once per file, before any variable lookup. */
const claimText = new WeakMap<SourceCode, boolean>();
function mayClaim(sourceCode: SourceCode): boolean {
  let known = claimText.get(sourceCode);
  if (known === undefined) claimText.set(sourceCode, (known = isClaimSql(sourceCode.text)));
  return known;
}

/** A `const` of this file holding SQL that claims rows (`FOR UPDATE SKIP LOCKED`). */
function claimsThroughConstant(sourceCode: SourceCode, argument: TSESTree.Node | undefined): boolean {
  if (argument?.type !== 'Identifier' || !mayClaim(sourceCode)) return false;
  const init = constantInitializer(argument, sourceCode) as TSESTree.Node | undefined;
  if (init?.type === 'Literal') return typeof init.value === 'string' && isClaimSql(init.value);
  return init?.type === 'TemplateLiteral' && isClaimSql(init.quasis.map((q) => q.value.raw).join(' '));
}

/**
 * `pool.query(CLAIM, …)` with `const CLAIM = '… FOR UPDATE SKIP LOCKED'`; a lease taken first, the work left when it was
 * lost (`const key = await elections.getElection(…); if (!key) return;`); each item claimed by a marker insert tested
 * before its effect (`if (!inserted) continue;`), or a lock tried first, when nothing was written or sent before the claim.
 */
export function claimsItsWork(
  node: TSESTree.CallExpression,
  sourceCode: SourceCode,
  isCoordinatedCall: ((call: TSESTree.CallExpression) => boolean) | undefined,
  wroteBefore: boolean,
  locksInProcessOnly: (call: TSESTree.CallExpression) => boolean,
): boolean {
  if (claimsThroughConstant(sourceCode, node.arguments[0]) || isCoordinatedCall?.(node) === true) return true;
  // A lease-named gate is trusted unless the project helper behind it locks only in this process (in-process-lock-helper.ts).
  if (isLeaseGate(node)) return !locksInProcessOnly(node);
  return !wroteBefore && (isItemClaim(node, sourceCode) || isTryLockGate(node, sourceCode));
}

/** How the effects walk asks functions it cannot read in this file about a claim they make. */
export interface CalleeClaimOptions {
  sourceCode: SourceCode;
  /** A call this file cannot resolve: whether the project function it reaches answers whether it claimed the work (claim-answer.ts). */
  followClaimAnswer?: FollowClaimAnswer;
  /** A call this file cannot resolve, made in a transaction: whether the function it reaches locks rows in it (row-lock-helper.ts). */
  followRowLock?: FollowRowLock;
}

/**
 * A claim made by the function a call runs, when nothing was written before it: its answer says
 * whether it claimed and the work leaves when it did not (`if (!(await this.insertRun())) return;`),
 * or, called in the work's transaction (or handed a client that began one), it locks the rows it reads (`await repo.nextDue(trx)`).
 */
export function claimsThroughCallee(
  node: TSESTree.CallExpression,
  options: CalleeClaimOptions,
  inTransaction: boolean,
  local: (call: TSESTree.CallExpression) => FunctionLike | undefined,
): boolean {
  if (claimsByAnswer(node, options.sourceCode, local, options.followClaimAnswer)) return true;
  if (options.followRowLock === undefined || local(node)) return false;
  return (inTransaction || handsBegunClient(node, options.sourceCode)) && options.followRowLock(node) === true;
}
