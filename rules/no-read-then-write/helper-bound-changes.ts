// A bound checked on the value read, then the field changed in the database by a project function
// handed the amount (checked-bounds.ts judges the write made in place):
//
//   const card = await Card.findOne({ ownerId });
//   if (card.points < cost) return reply('not enough');
//   await spendPoints(ownerId, cost);   // elsewhere: Card.updateOne({ ownerId }, { $inc: { points: -amount } })
//
// The function is read (this file, a project module, an injected service's method: analysis/modules)
// and asked which field its library write changes atomically by which of its parameters, and in
// which direction (`$inc: { points: -amount }`, Prisma `{ increment: amount }`), itself or through a
// project function it hands the parameter to, negated or not (`charge(user, cost)` →
// `addToBalance(user.id, -cost)`). A write whose filter names the field carries the bound; one that
// moves the row out of the state it filters on passes once. Asked only of a call made after a bound
// check on a read of the same function passed, and the call must name the read's row (hand it, a
// key taken from it, or a key the read filtered on).
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { defineFunctionFact, projectFunctionOf, type ProjectFunction } from '../../analysis/modules/index.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { descendants } from '../../analysis/sql/descendants.js';
import { enclosingFunction } from '../../analysis/sql/enclosing-function.js';
import type { DetectContext } from '../../analysis/detect-context.js';
import type { DataLibrary } from '../../src/knowledge/orm-reads-writes.js';
import { atomicChangesOf, namesField, passedBefore, transitionsState } from './checked-bounds.js';
import { guardsWrite } from './bound-guards.js';
import type { PendingFinding, ReadSite, Taint, WriteSite } from './model.js';
import { writeSiteOf } from './write-site.js';

type Node = TSESTree.Node;

/** A field a function changes in the database by one of its parameters. */
export interface ParameterChange {
  field: string;
  /** The parameter's position. */
  index: number;
  /** Whether a positive amount handed there lowers the field. */
  lowers: boolean;
  model: string | null;
  library: DataLibrary | undefined;
}

const nested = (node: Node): boolean =>
  node.type === 'FunctionDeclaration' || node.type === 'ClassDeclaration' || node.type === 'ClassExpression';

/** `-amount` → `amount`, negated; `amount` → itself. */
function signed(node: Node | undefined): { value: Node; negated: boolean } | undefined {
  if (!node || node.type === 'SpreadElement') return undefined;
  const expr = unwrapExpression(node);
  if (expr.type === 'UnaryExpression' && expr.operator === '-') return { value: unwrapExpression(expr.argument), negated: true };
  return { value: expr, negated: false };
}

const parameterNames = (fn: ProjectFunction['fn']): (string | null)[] =>
  fn.params.map((p) =>
    p.type === 'Identifier' ? p.name : p.type === 'AssignmentPattern' && p.left.type === 'Identifier' ? p.left.name : null,
  );

/** The fields a project function changes atomically by a parameter, itself or through a project function it hands the parameter to. */
export const parameterChangesOf = defineFunctionFact<ParameterChange[]>(
  'changes a field in the database by a parameter',
  [],
  ({ fn, module }, follow) => {
    const names = parameterNames(fn);
    if (!fn.body || !names.some((n) => n !== null)) return [];
    const indexOf = (node: Node): number => (node.type === 'Identifier' ? names.indexOf(node.name) : -1);
    const keys = module.sourceCode.visitorKeys as TSESLint.SourceCode.VisitorKeys;
    const out: ParameterChange[] = [];
    // An arrow's expression body is itself the call (`async (id, n) => db.update(…)`).
    for (const node of [fn.body, ...descendants(fn.body, keys, nested)]) {
      if (node.type !== 'CallExpression') continue;
      const site = writeSiteOf(node, () => false);
      if (site) {
        if (transitionsState(site)) continue;
        for (const change of atomicChangesOf(site)) {
          const amount = signed(change.amount);
          const index = amount ? indexOf(amount.value) : -1;
          if (index < 0 || site.conditions.some((c) => namesField(c, change.field))) continue;
          out.push({ field: change.field, index, lowers: change.lowers, model: site.model, library: site.candidates[0] });
        }
        continue;
      }
      // Handed on to another project function, negated or not (`addToBalance(user.id, -cost)`).
      if (!node.arguments.some((a) => indexOf(signed(a)?.value ?? a) >= 0)) continue;
      const inner = follow(node.callee);
      for (const change of inner ? parameterChangesOf(inner) : []) {
        const amount = signed(node.arguments[change.index]);
        const index = amount ? indexOf(amount.value) : -1;
        if (index >= 0) out.push({ ...change, index, lowers: change.lowers !== amount!.negated });
      }
    }
    return out;
  },
);

/** The parameter changes of the project function `call` calls; none when it is out of reach. */
export function parameterChangesAt(context: DetectContext, call: TSESTree.CallExpression): ParameterChange[] {
  const fn = projectFunctionOf(context, call.callee);
  return fn ? parameterChangesOf(fn) : [];
}

/** The first table name of a model, lower case (`'User'`, `user`). */
const sameTable = (a: string | null, b: string | null): boolean => a === null || b === null || a.toLowerCase() === b.toLowerCase();

/** Whether `call` names the row `read` loaded: hands the row or a value taken from it, or a key written in the read's call. */
function namesRow(
  call: TSESTree.CallExpression,
  read: ReadSite,
  text: (node: Node) => string,
  taintOf: (node: Node) => Taint | null,
): boolean {
  const readText = read.node.type === 'Identifier' ? '' : text(read.node);
  return call.arguments.some((a) => {
    if (a.type === 'SpreadElement') return false;
    if (taintOf(a)?.read === read) return true;
    const expr = unwrapExpression(a);
    return (
      (expr.type === 'MemberExpression' || expr.type === 'Identifier') &&
      new RegExp(`(?<![\\w$.])${escape(text(expr))}(?![\\w$])`).test(readText)
    );
  });
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The pending findings of a call made after a bound check on a read passed: each field the function
 * it calls changes in the database, by an amount it is handed, in the direction that crosses the bound.
 */
export function helperBoundChanges(
  call: TSESTree.CallExpression,
  reads: Iterable<ReadSite | null>,
  options: { helperChangesOf?: (call: TSESTree.CallExpression) => ParameterChange[]; sourceCode: { getText(node: Node): string } },
  taintOf: (node: Node) => Taint | null,
): PendingFinding[] {
  const { helperChangesOf: changesAt, sourceCode } = options;
  if (!changesAt) return [];
  const fn = enclosingFunction(call);
  const checked: ReadSite[] = [];
  for (const read of reads)
    if (read?.checkedBounds && !read.locked && read.checkedBounds.some((b) => guardsWrite(b, call, fn, passedBefore))) checked.push(read);
  // Most calls follow no bound check: no module is read for them.
  if (checked.length === 0 || call.arguments.length === 0) return [];
  const changes = changesAt(call);
  const text = (node: Node): string => sourceCode.getText(node);
  for (const change of changes) {
    const amount = signed(call.arguments[change.index]);
    if (!amount) continue;
    const literal = amount.value.type === 'Literal' && typeof amount.value.value === 'number' ? amount.value.value : undefined;
    const lowers = change.lowers !== (amount.negated !== (literal !== undefined && literal < 0));
    for (const read of checked) {
      const bound = read.checkedBounds!.find(
        (b) => b.field === change.field && b.floor === lowers && guardsWrite(b, call, fn, passedBefore),
      );
      if (!bound || !sameTable(read.model, change.model) || !namesRow(call, read, text, taintOf)) continue;
      return [
        {
          read,
          write: writeAt(call, change),
          changes: [fieldChange(change, call.arguments[change.index]!, lowers, text)],
          loc: undefined,
          checkedBound: bound.check,
        },
      ];
    }
  }
  return [];
}

function fieldChange(change: ParameterChange, amount: Node, lowers: boolean, text: (node: Node) => string) {
  return {
    field: change.field,
    node: amount,
    operator: lowers ? ('-' as const) : ('+' as const),
    operand: text(amount),
    readField: change.field,
  };
}

/** The call as the write: a project function, no library form to rewrite. */
function writeAt(call: TSESTree.CallExpression, change: ParameterChange): WriteSite {
  const callee = unwrapExpression(call.callee);
  const nameNode = callee.type === 'MemberExpression' && !callee.computed ? callee.property : callee;
  return {
    candidates: change.library ? [change.library] : [],
    model: change.model,
    node: call,
    reportNode: nameNode,
    values: [],
    entities: [],
    conditions: [],
    shape: {
      method:
        (callee.type === 'MemberExpression' ? memberPropertyName(callee) : undefined) ?? (callee.type === 'Identifier' ? callee.name : ''),
      nameNode,
      data: undefined,
      filter: undefined,
      helper: true,
    },
  };
}
