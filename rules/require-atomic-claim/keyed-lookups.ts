// A lookup of one record to use it is not a claim of pending work. `findOne({ code, status:
// 'active' })` finds the record its caller names (a value the function was given, under a key that
// is not a state), the state in the filter only checks that the record may be used, and nothing
// after the read moves a state on: the write that follows bumps a counter or links a new row
// (`$inc: { clicks: 1 }`). Two callers both using the record is what both asked for.
//
// A worker picking queued rows names none (`findOne({ status: 'pending' })`), a queue-like table
// holds work whatever the key, and a record whose state the function then sets or deletes (a
// voucher found `unused` and marked `used`) is claimed: those stay reported.
import type { DetectContext } from '../../analysis/detect-context.js';
import { enclosingFunction } from '../../analysis/sql/enclosing-function.js';
import { isOutermostCall, methodChain } from '../../analysis/sql/method-chain.js';
import { DELETE_METHODS, isQueue, isStatus, type ClaimVocabulary, type DatabaseCall, type PendingRead } from './claim-shapes.js';
import { filterPairs } from './filter-pairs.js';
import { fromParameters, setsColumnAfter } from './named-by-request.js';

/** Reads of one record by a filter. */
const ONE_RECORD_READS: ReadonlySet<string> = new Set(['findOne', 'findFirst', 'findOneBy', 'first']);

const linksAny = (call: DatabaseCall, names: ReadonlySet<string>): boolean =>
  call.type === 'CallExpression' && isOutermostCall(call) && methodChain(call).some((l) => l.name !== undefined && names.has(l.name));

/** Whether `read` looks up one record its caller names, and `write` (and all after the read) moves no state on. */
export function looksUpOneToUse(read: PendingRead, write: DatabaseCall, context: DetectContext, vocabulary: ClaimVocabulary): boolean {
  if (read.kind !== 'builder' || read.statusColumn === undefined || !linksAny(read.node, ONE_RECORD_READS)) return false;
  if (read.table !== undefined && isQueue(read.table, vocabulary)) return false;
  const fn = enclosingFunction(read.node);
  if (!fn || linksAny(write, DELETE_METHODS)) return false;
  const state = (name: string): boolean => isStatus(name, vocabulary);
  const named = filterPairs(read).some(({ key, value }) => !state(key) && fromParameters(value, fn, context));
  return named && !setsColumnAfter(read.node, fn, context.sourceCode.visitorKeys, state);
}

