// A call whose answer says whether this replica claimed the work, tested before the work goes on:
//   const added = await this.addRunMarker(); if (!added) return;
//   const marked = await this.bookings.markNotified(id); if (!marked) continue;
// The function called answers whether it claimed when it
// - inserts a row keyed by the job, period or item in a `try` and answers `true` after it, `false`
//   in the `catch` (the unique key fails every insert but the first, at any number of replicas);
// - answers a test of the row count of an update whose filter re-checks more than the row's id
//   (`WHERE id = $1 AND reminded_at IS NULL`, `.andWhere(…)`, `where: { id, lockedAt: null }`): one replica's
//   update wins the row; or answers the rows it won so, each updated in a loop and kept when its count says so
//   (`const batch = await store.reserveChunk(…); if (!batch.length) return;`: a batch claim);
// - or answers what such a function answers (`return this.insertRun(KEY)`), a few calls deep, in
//   this file or another module (analysis/modules). The work left when the answer is false runs once.
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { AFFECTED_COUNT_FIELDS, CONDITIONAL_FILTER_TEXT, MARKER_INSERT_VERBS } from '../../src/knowledge/item-claims.js';
import { RANDOM_ID_MAKERS } from '../../src/knowledge/random-ids.js';
import { chainLinksOf } from '../ast/method-chain.js';
import { memberPropertyName } from '../ast/property-names.js';
import { nameWords } from '../ast/name-words.js';
import { unwrapExpression } from '../ast/unwrapped-expression.js';
import { descendants } from '../sql/descendants.js';
import type { DetectContext } from '../detect-context.js';
import { defineFunctionFact, factFollower, projectFunctionOf, type ProjectFunction } from '../modules/index.js';
import { answerTested } from './item-claim.js';
import { isLogLine } from './lease-gate.js';
import { isFunctionLike, type FunctionLike } from './work-function.js';

/** Whether the project function a call reaches answers whether it claimed (undefined: not found). */
export type FollowClaimAnswer = (call: TSESTree.CallExpression) => boolean | undefined;

const MAX_DEPTH = 3;

/** The names random and time-based id makers are called by (`randomUUID`, `v4`, `now`, `nanoid`). */
const FRESH_VALUE_CALLS: ReadonlySet<string> = new Set(RANDOM_ID_MAKERS.flatMap((maker) => maker.path.slice(-1)));

const isBoolean = (node: TSESTree.Node | null | undefined, value: boolean): boolean => node?.type === 'Literal' && node.value === value;

const returns = (statement: TSESTree.Statement | undefined, value: boolean): boolean =>
  statement?.type === 'ReturnStatement' && isBoolean(statement.argument, value);

/** The call a statement runs (`await x()`, `return await x()`, `const r = await x()`). */
function callOf(node: TSESTree.Node | null | undefined): TSESTree.CallExpression | undefined {
  if (!node) return undefined;
  if (node.type === 'ExpressionStatement' || node.type === 'ReturnStatement')
    return callOf(node.type === 'ReturnStatement' ? node.argument : node.expression);
  if (node.type === 'VariableDeclaration') return node.declarations.length === 1 ? callOf(node.declarations[0]!.init) : undefined;
  const value = unwrapExpression(node, { await: true });
  return value.type === 'CallExpression' ? value : undefined;
}

/** `new Date()`, `Date.now()`, `randomUUID()`: a value no other replica's row shares. */
function isFreshValue(node: TSESTree.Node): boolean {
  const value = unwrapExpression(node);
  if (value.type === 'NewExpression') return true;
  if (value.type !== 'CallExpression') return false;
  const name = value.callee.type === 'Identifier' ? value.callee.name : memberPropertyName(value.callee);
  return name !== undefined && FRESH_VALUE_CALLS.has(name);
}

/** An insert of a row some field of which every replica gives alike (the job's id, the period): not only fresh values. */
function insertsKeyedRow(call: TSESTree.CallExpression): boolean {
  const links = chainLinksOf(call);
  if (!links.some((link) => MARKER_INSERT_VERBS.includes(nameWords(link.name ?? '')[0] ?? ''))) return false;
  const row = links.flatMap((link) => link.call.arguments).find((a) => a.type === 'ObjectExpression');
  if (row?.type !== 'ObjectExpression') return true;
  return row.properties.some((p) => p.type === 'Property' && !isFreshValue(p.value));
}

/** `try { await insert(row); return true; } catch { return false; }` among the function's statements. */
function insertsInTry(statements: readonly TSESTree.Statement[]): boolean {
  return statements.some((statement) => {
    if (statement.type !== 'TryStatement' || !statement.handler) return false;
    const body = statement.block.body;
    const at = body.findIndex((s) => returns(s, true));
    const inserted = body.slice(0, Math.max(at, 0)).some((s) => {
      const call = callOf(s);
      return call !== undefined && insertsKeyedRow(call);
    });
    const handler = statement.handler.body.body.filter((s) => !isLogLine(s));
    return at > 0 && inserted && handler.length === 1 && returns(handler[0], false);
  });
}

/** `r.affected`, `result.rowCount ?? 0`: the name whose affected-row count an expression reads. */
function countedName(node: TSESTree.Node, sourceCode: SourceCode): string | undefined {
  for (const child of [node, ...descendants(node, sourceCode.visitorKeys)]) {
    if (child.type !== 'MemberExpression' || !AFFECTED_COUNT_FIELDS.includes(memberPropertyName(child) ?? '')) continue;
    const object = unwrapExpression(child.object);
    if (object.type === 'Identifier') return object.name;
  }
  return undefined;
}

/** `const r = await <conditional update>; … return (r.affected ?? 0) > 0;` among the function's statements. */
function answersConditionalUpdate(statements: readonly TSESTree.Statement[], sourceCode: SourceCode): boolean {
  const last = statements[statements.length - 1];
  if (last?.type !== 'ReturnStatement' || !last.argument) return false;
  const name = countedName(last.argument, sourceCode);
  const declaration = statements.find(
    (s): s is TSESTree.VariableDeclaration =>
      s.type === 'VariableDeclaration' && s.declarations.some((d) => d.id.type === 'Identifier' && d.id.name === name),
  );
  const call = declaration && callOf(declaration);
  if (!call) return false;
  return isConditionalUpdate(call, sourceCode);
}

/** `{ where: { id, lockedAt: null } }`: an update's filter (its first argument's `where`) re-checking more than the row's id. */
function filtersBeyondId(call: TSESTree.CallExpression): boolean {
  const options = call.arguments[0];
  if (options?.type !== 'ObjectExpression') return false;
  const where = options.properties.find(
    (p) => p.type === 'Property' && !p.computed && p.key.type === 'Identifier' && p.key.name === 'where',
  );
  const filter = where?.type === 'Property' ? unwrapExpression(where.value as TSESTree.Node) : undefined;
  return filter?.type === 'ObjectExpression' && filter.properties.length > 1;
}

/** An update whose filter re-checks more than the row's id: one replica's update wins the row. */
function isConditionalUpdate(call: TSESTree.CallExpression, sourceCode: SourceCode): boolean {
  const text = sourceCode.getText(call);
  return /\bupdate/i.test(text) && (CONDITIONAL_FILTER_TEXT.test(text) || filtersBeyondId(call));
}

/**
 * `for (const row of candidates) { const r = await <conditional update of row>; if (r.count === 1) won.push(row); } return won;`:
 * the function answers the rows its replica won, each by a conditional update (a batch claim).
 */
function answersWonRows(statements: readonly TSESTree.Statement[], sourceCode: SourceCode): boolean {
  const last = statements[statements.length - 1];
  const list = last?.type === 'ReturnStatement' && last.argument?.type === 'Identifier' ? last.argument.name : undefined;
  if (list === undefined) return false;
  return statements.some((statement) => {
    if (statement.type !== 'ForOfStatement' || statement.body.type !== 'BlockStatement') return false;
    const body = statement.body.body;
    return body.some((s) => {
      if (s.type !== 'IfStatement' || !sourceCode.getText(s.consequent).includes(`${list}.push(`)) return false;
      const name = countedName(s.test, sourceCode);
      const declaration = body.find(
        (d): d is TSESTree.VariableDeclaration =>
          d.type === 'VariableDeclaration' && d.declarations.some((v) => v.id.type === 'Identifier' && v.id.name === name),
      );
      const call = declaration && callOf(declaration);
      return call !== undefined && isConditionalUpdate(call, sourceCode);
    });
  });
}

/** The function's statements, log lines left out; an arrow's expression body as its return. */
function statementsOf(fn: FunctionLike): TSESTree.Statement[] {
  if (fn.body.type !== 'BlockStatement') return [{ type: 'ReturnStatement', argument: fn.body } as TSESTree.ReturnStatement];
  return fn.body.body.filter((s) => !isLogLine(s));
}

/** Whether `fn` answers whether it claimed (see the header); `follow` answers a call it makes. */
export function answersClaim(fn: FunctionLike, sourceCode: SourceCode, follow: FollowClaimAnswer): boolean {
  const statements = statementsOf(fn);
  if (insertsInTry(statements) || answersConditionalUpdate(statements, sourceCode) || answersWonRows(statements, sourceCode)) return true;
  // `return this.insertRun(KEY);`: the answer of another function, handed on.
  const only = statements.length === 1 && statements[0]!.type === 'ReturnStatement' ? callOf(statements[0]) : undefined;
  return only !== undefined && follow(only) === true;
}

/** Whether a project function answers whether it claimed, the calls it hands its answer from followed. */
export const claimAnswerOf: (fn: ProjectFunction) => boolean = defineFunctionFact<boolean>(
  'answers whether it claimed',
  false,
  (fn, follow) => answersClaim(fn.fn, fn.module.sourceCode, factFollower(claimAnswerOf, follow)),
);

/** `followClaimAnswer` for the linted file: calls into the project's other modules. */
export function followClaimAnswersFrom(context: DetectContext): FollowClaimAnswer {
  return factFollower(claimAnswerOf, (callee) => projectFunctionOf(context, callee));
}

/**
 * Whether `call`'s answer is tested and the work left when it is false, and the function it runs
 * (same file, `local`; else through `follow`) answers whether it claimed.
 */
export function claimsByAnswer(
  call: TSESTree.CallExpression,
  sourceCode: SourceCode,
  local: (call: TSESTree.CallExpression) => FunctionLike | undefined,
  follow: FollowClaimAnswer | undefined,
): boolean {
  if (!answerTested(call)) return false;
  const answer = (inner: TSESTree.CallExpression, depth: number): boolean | undefined => {
    const fn = local(inner);
    if (!fn) return follow?.(inner);
    return depth < MAX_DEPTH && isFunctionLike(fn) && answersClaim(fn, sourceCode, (next) => answer(next, depth + 1));
  };
  return answer(call, 0) === true;
}
