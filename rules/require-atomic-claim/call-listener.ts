// The claim rule's calls told apart by one `CallExpression` listener: each question is a name test
// in JavaScript, where six regular-expression selectors (`CallExpression[callee.property.name=/…/]`)
// had ESLint's esquery match every call of every admitted file. The handlers share the rule's
// `seen` set, so they run in the order ESLint ran the selectors they replace (least specific
// first): an imported helper's read, a member read, a plain `query(…)`, then a one-row read or loader.
import type { TSESTree } from '@typescript-eslint/utils';
import { SQL_FUNCTION_NAMES } from '../../src/knowledge/database-access.js';
import { ROW_LOADER_NAME } from '../../src/knowledge/orm-reads-writes.js';
import { mayBeImportedRead } from './helper-pairs.js';
import { UNIQUE_ROW_READS } from './flag-claims.js';

type CallHandler = (node: TSESTree.CallExpression) => void;

export interface ClaimCallHandlers {
  /** `getParcels()`: a plain call named with a read verb (helper-pairs.ts). */
  importedRead: CallHandler;
  /** Any member call: the handler asks its name itself (a SQL, read or filter method, a pending-rows helper). */
  memberCall: CallHandler;
  /** `query(…)` / `execute(…)` through a project's own function (plain-queries.ts). */
  plainQuery: CallHandler;
  /** A read of one row by its key (`findUnique`), or a call of a helper named for loading one row (`loadByTaskId`). */
  oneRowRead: CallHandler;
}

/** The property name a callee's `callee.property.name` path reaches, as esquery read it (computed or private names too). */
const propertyName = (callee: TSESTree.Expression): unknown => (callee as { property?: { name?: unknown } }).property?.name;

/** One listener for every call the claim rule looks at. */
export function claimCallListener(handlers: ClaimCallHandlers): CallHandler {
  return (node) => {
    const callee = node.callee;
    if (callee.type === 'Identifier') {
      const name = callee.name;
      if (mayBeImportedRead(name)) handlers.importedRead(node);
      if (SQL_FUNCTION_NAMES.has(name)) handlers.plainQuery(node);
      if (ROW_LOADER_NAME.test(name)) handlers.oneRowRead(node);
      return;
    }
    if (callee.type === 'MemberExpression') handlers.memberCall(node);
    const name = propertyName(callee);
    if (typeof name === 'string' && (UNIQUE_ROW_READS.has(name) || ROW_LOADER_NAME.test(name))) handlers.oneRowRead(node);
  };
}
