// A lookup of one record to use it is not a claim of pending work. `findOne({ code, status:
// 'active' })` finds the record its caller names (a value the function was given, under a key that
// is not a state), the state in the filter only checks that the record may be used, and nothing
// after the read moves a state on: the write of the record only counts in the database (`$inc: {
// clicks: 1 }`, Prisma `{ increment: 1 }`). Two callers both using the record is what both asked for.
//
// A worker picking queued rows names none (`findOne({ status: 'pending' })`), a queue-like table
// holds work whatever the key, and a record whose state the function then sets, stamps or
// deletes (a voucher found `unused` and marked `used`) is claimed: those stay reported.
import type { TSESTree } from '@typescript-eslint/utils';
import type { DetectContext } from '../../analysis/detect-context.js';
import { enclosingFunction } from '../../analysis/sql/enclosing-function.js';
import { isOutermostCall, methodChain } from '../../analysis/sql/method-chain.js';
import { MONGO_ATOMIC_OPERATORS, PRISMA_ATOMIC_OPERATIONS } from '../../src/knowledge/orm-reads-writes.js';
import { isQueue, isStatus, writtenValues, type ClaimVocabulary, type DatabaseCall, type PendingRead } from './claim-shapes.js';
import { keyName } from './row-names.js';
import { filterPairs } from './filter-pairs.js';
import { fromParameters, setsColumnAfter } from './named-by-request.js';

/** Reads of one record by a filter. */
const ONE_RECORD_READS: ReadonlySet<string> = new Set(['findOne', 'findFirst', 'findOneBy', 'first']);

/** Operators that count in the database (a stamp, `$currentDate`, is a mark). */
const COUNTERS: ReadonlySet<string> = new Set([...MONGO_ATOMIC_OPERATORS.filter((o) => o !== '$currentDate'), ...PRISMA_ATOMIC_OPERATIONS]);

const onlyKeys = (node: TSESTree.Node | undefined, keys: ReadonlySet<string>): boolean =>
  node?.type === 'ObjectExpression' &&
  node.properties.length > 0 &&
  node.properties.every((p) => p.type === 'Property' && keys.has(keyName(p) ?? ''));

/** Whether a write of the record only counts: `{ $inc: { clicks: 1 } }`, `data: { uses: { increment: 1 } }`. */
function countsOnly(write: DatabaseCall): boolean {
  if (write.type !== 'CallExpression' || !isOutermostCall(write)) return false;
  const values = writtenValues(methodChain(write));
  if (onlyKeys(values, COUNTERS)) return true;
  return values?.type === 'ObjectExpression' && values.properties.every((p) => p.type === 'Property' && onlyKeys(p.value, COUNTERS));
}

/** Whether `read` looks up one record its caller names, and `write` (and all after the read) moves no state on. */
export function looksUpOneToUse(read: PendingRead, write: DatabaseCall, context: DetectContext, vocabulary: ClaimVocabulary): boolean {
  if (read.kind !== 'builder' || read.node.type !== 'CallExpression' || read.statusColumn === undefined || !countsOnly(write)) return false;
  if (!methodChain(read.node).some((l) => l.name !== undefined && ONE_RECORD_READS.has(l.name))) return false;
  if (read.table !== undefined && isQueue(read.table, vocabulary)) return false;
  const fn = enclosingFunction(read.node);
  if (!fn) return false;
  const state = (name: string): boolean => isStatus(name, vocabulary);
  const named = filterPairs(read).some(({ key, value }) => !state(key) && fromParameters(value, fn, context));
  return named && !setsColumnAfter(read.node, fn, context.sourceCode.visitorKeys, state);
}
