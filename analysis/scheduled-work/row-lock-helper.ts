// A row lock taken by a function of another module that the work calls inside its transaction
// (`await this.payments.nextUnsettled(trx)` in `db.transaction(async (trx) => …)`): the function's
// `SELECT … FOR UPDATE` — SQL, a builder's `.forUpdate()`, or a query tag in a select's filter
// (Drizzle's `.where(sql\`… FOR UPDATE\`)`) — runs in the caller's transaction, so the rows it reads
// stay locked until that transaction ends and a second replica waits, then sees them as the first
// left them (row-lock.ts). So does a client handed over after it sent `BEGIN` in the work
// (`await client.query('BEGIN'); await repo.nextDue(client)`). A lock in such a function called
// outside a transaction holds nothing.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { chainLinksOf } from '../ast/method-chain.js';
import { memberPropertyName } from '../ast/property-names.js';
import { descendants } from '../sql/descendants.js';
import { enclosingFunction } from '../sql/enclosing-function.js';
import { transactionControlOf } from '../sql/transaction-controls.js';
import type { DetectContext } from '../detect-context.js';
import { defineFunctionFact, factFollower, projectFunctionOf, type ProjectFunction } from '../modules/index.js';
import { locksRowsForUpdate } from './row-lock.js';

/** Whether the project function a call reaches locks rows for update in its caller's transaction (undefined: not found). */
export type FollowRowLock = (call: TSESTree.CallExpression) => boolean | undefined;

const FOR_UPDATE = /\bfor\s+(?:no\s+key\s+)?update\b/i;

/** `db.select().from(t).where(sql\`… FOR UPDATE\`)`: a lock clause written into a select's filter. */
function locksInSelectFilter(tag: TSESTree.TaggedTemplateExpression): boolean {
  if (!FOR_UPDATE.test(tag.quasi.quasis.map((q) => q.value.raw).join(' '))) return false;
  const call = tag.parent;
  if (call?.type !== 'CallExpression' || memberPropertyName(call.callee) !== 'where') return false;
  return chainLinksOf(call).some((link) => link.name === 'select' || link.name === 'selectFrom');
}

/** Whether a project function locks rows for update, as run in its caller's transaction; the calls it makes followed. */
export const locksRowsInCallersTransaction: (fn: ProjectFunction) => boolean = defineFunctionFact<boolean>(
  "locks rows in its caller's transaction",
  false,
  (fn, follow) => {
    const sourceCode = fn.module.sourceCode as unknown as Readonly<TSESLint.SourceCode>;
    const followed = factFollower(locksRowsInCallersTransaction, follow);
    for (const node of descendants(fn.fn.body, sourceCode.visitorKeys)) {
      if (node.type === 'TaggedTemplateExpression' && locksInSelectFilter(node)) return true;
      if (locksRowsForUpdate(node, sourceCode, true)) return true;
      if (node.type === 'CallExpression' && node.arguments.length > 0 && followed(node) === true) return true;
    }
    return false;
  },
);

/** `followRowLock` for the linted file: calls into the project's other modules. */
export function followRowLocksFrom(context: DetectContext): FollowRowLock {
  return factFollower(locksRowsInCallersTransaction, (callee) => projectFunctionOf(context, callee));
}

/** Whether a file's text can open a transaction by hand at all: asked once per file. */
const beginText = new WeakMap<object, boolean>();
const MAY_BEGIN = /\bbegin\b|start\s*transaction/i;

/** `repo.nextDue(client)` after `await client.query('BEGIN')` in the same function: the call is handed a client inside its transaction. */
export function handsBegunClient(call: TSESTree.CallExpression, sourceCode: Readonly<TSESLint.SourceCode>): boolean {
  let mayBegin = beginText.get(sourceCode);
  if (mayBegin === undefined) beginText.set(sourceCode, (mayBegin = MAY_BEGIN.test(sourceCode.text)));
  const handed = new Set(call.arguments.filter((a) => a.type === 'Identifier').map((a) => (a as TSESTree.Identifier).name));
  const fn = mayBegin && handed.size > 0 ? enclosingFunction(call) : undefined;
  if (!fn) return false;
  for (const node of descendants(fn.body, sourceCode.visitorKeys)) {
    if (node.range[0] >= call.range[0]) break;
    if (node.type !== 'CallExpression') continue;
    const control = transactionControlOf(node, sourceCode);
    if (control?.kind === 'begin' && control.fn === fn && handed.has(control.client)) return true;
  }
  return false;
}
