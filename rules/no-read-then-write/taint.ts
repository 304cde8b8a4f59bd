// Whether an expression carries a value read from the database, and whether JavaScript changed
// it on the way (`row.balance - amount`). Walks only the expression given, never the program.
import { isLibraryConversion } from './library-conversions.js';
import type { TSESTree } from '@typescript-eslint/utils';
import { ARITHMETIC_METHODS, VALUE_PASS_THROUGH_FUNCTIONS } from '../../src/knowledge/orm-reads-writes.js';
import {
  COLLECTION_CONSTRUCTORS,
  COPYING_CALLS,
  DECIMAL_WRAPPERS,
  DECODING_CALLS,
  ELEMENT_METHODS,
  LIST_COPY_METHODS,
  VALUE_PASS_THROUGH_METHODS,
} from '../../src/knowledge/loaded-value-forms.js';
import { BYTE_CODING_METHODS, KV_ENTRY_DECODERS } from '../../src/knowledge/kv-buckets.js';
import { FIELD_GETTER } from '../../src/knowledge/parse-objects.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { keyedRow, keyedRowsOf } from './keyed-rows.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';

import type { Computation, DatabaseCall, FieldChange, ReadSite, Taint } from './model.js';
import { settled, unsettled } from './pending-reads.js';
import { callsNumericHelper, fieldReturnedBy } from './numeric-helpers.js';

export interface TaintEnvironment {
  /** The taint of a local variable by name (`undefined` or `null`: not from a read). */
  lookup(name: string): Taint | null | undefined;
  /** The read a call is, if it is one. */
  readOf(node: DatabaseCall): ReadSite | null;
  /** Source text of a node. */
  text(node: TSESTree.Node): string;
  /** The row a request holds, read by a middleware in another file (`req.user`, request-rows.ts). */
  requestRow?(node: TSESTree.MemberExpression): ReadSite | null;
}

const ARITHMETIC_OPERATORS = new Set(['+', '-', '*', '/', '%', '**', '<<', '>>', '>>>', '|', '&', '^']);
const MAX_DEPTH = 48;

function isStringLike(node: TSESTree.Node, depth = 0): boolean {
  if ((node.type === 'Literal' && typeof node.value === 'string') || node.type === 'TemplateLiteral') return true;
  if (depth >= MAX_DEPTH) return false;
  // `'.' + ext`, and `(ext || '')` / `type && '.' + ext`: a string with a fallback is still a string.
  if (node.type === 'BinaryExpression' && node.operator === '+')
    return isStringLike(node.left, depth + 1) || isStringLike(node.right, depth + 1);
  if (node.type === 'LogicalExpression') return isStringLike(node.right, depth + 1);
  return false;
}

const isEmptyString = (node: TSESTree.Node): boolean => node.type === 'Literal' && node.value === '';

/** The other side of `'' + x` / `x + ''`, or undefined. */
function emptyStringJoined(expr: TSESTree.BinaryExpression): TSESTree.Node | undefined {
  if (expr.left.type !== 'PrivateIdentifier' && isEmptyString(expr.left)) return expr.right;
  return isEmptyString(expr.right) && expr.left.type !== 'PrivateIdentifier' ? expr.left : undefined;
}

/** Prefers a computed taint: it is the one a report is about (a pending read is asked first: it may be none). */
export function unionOf(a: Taint | null, b: Taint | null): Taint | null {
  if (!a) return b;
  if (!b) return a;
  if (unsettled(a) || unsettled(b)) return unionOf(settled(a), settled(b));
  // A loader out of reach's whole answer (`rate` of `getRate()`) is no row's value (stale-change.ts): the other side's read is.
  if (wholeGuess(a) !== wholeGuess(b)) return wholeGuess(a) ? b : a;
  return !a.computed && b.computed ? b : a;
}

/** A value made from the whole answer of a helper taken for a loader by its name, not from a field of it. */
const wholeGuess = (t: Taint): boolean => t.read.guessed === true && (t.computed?.field ?? t.field) === null;

function computedFrom(base: Taint, computation: Omit<Computation, 'field'>): Taint {
  return { read: base.read, field: base.field, computed: { ...computation, field: base.computed?.field ?? base.field } };
}

/**
 * What an assignment used as a value carries: the value assigned, and for arithmetic in place
 * (`{ total: (row.total += n) }`) the target's value computed with the right side, as `row.total + n`.
 */
function assignedTaint(expr: TSESTree.AssignmentExpression, env: TaintEnvironment, depth: number): Taint | null {
  const operator = expr.operator.slice(0, -1);
  if (expr.operator === '=' || !ARITHMETIC_OPERATORS.has(operator)) return taintOf(expr.right, env, depth);
  // `row.title += ' (copy)'` builds a string.
  if (operator === '+' && isStringLike(expr.right)) return null;
  const target = taintOf(expr.left, env, depth);
  const right = taintOf(expr.right, env, depth);
  const base = unionOf(target, right);
  if (!base) return null;
  const simple = (operator === '+' || operator === '-') && target !== null && !target.computed && right === null;
  return computedFrom(base, { node: expr, operator, operand: simple ? env.text(expr.right) : null });
}

/** The taint `node` carries, or `null`. Never throws on odd shapes; gives up past a depth. */
export function taintOf(node: TSESTree.Node | null | undefined, env: TaintEnvironment, depth = 0): Taint | null {
  if (!node || depth > MAX_DEPTH) return null;
  const next = depth + 1;
  const expr = unwrapExpression(node);
  switch (expr.type) {
    case 'Identifier':
      return env.lookup(expr.name) ?? null;
    // `this` of a schema's instance method is a loaded document (schema-methods.ts).
    case 'ThisExpression':
      return env.lookup('this') ?? null;
    case 'MemberExpression': {
      const held = env.requestRow?.(expr);
      if (held) return { read: held, field: null, computed: null };
      const base = taintOf(expr.object, env, next);
      if (!base) return null;
      const name = memberPropertyName(expr);
      // `data.profile` of a parameter that carries the document there is the document; `data.guild` is none of it.
      if (base.read.documentAt !== undefined && base.field === null && !base.computed)
        return name === base.read.documentAt ? { read: base.read, field: null, computed: null } : null;
      // `rows[0]` keeps the field it had; `.balance` names one.
      const field = name !== undefined && !/^\d+$/.test(name) ? name : base.field;
      return { read: base.read, field: base.computed ? base.field : field, computed: base.computed };
    }
    case 'AwaitExpression': {
      const argument = unwrapExpression(expr.argument);
      if (argument.type === 'CallExpression' || argument.type === 'TaggedTemplateExpression') {
        const read = env.readOf(argument);
        if (read) return { read, field: null, computed: null };
      }
      return taintOf(argument, env, next);
    }
    case 'TaggedTemplateExpression': {
      const read = env.readOf(expr);
      return read ? { read, field: null, computed: null } : null;
    }
    case 'NewExpression': {
      // `new Set(shop.methods)`: a collection that stands for the loaded field it was built from.
      const callee = unwrapExpression(expr.callee);
      const source = expr.arguments[0];
      const calleeName = callee.type === 'Identifier' ? callee.name : memberPropertyName(callee);
      // `new Map(rows.map((row) => [row.id, row]))`: the rows by key (keyed-rows.ts).
      const rows = calleeName === 'Map' && source && source.type !== 'SpreadElement' ? keyedRowsOf(source) : undefined;
      const list = rows ? settled(taintOf(rows, env, next)) : null;
      if (list && !list.computed && list.field === null) return { ...list, keyed: true };
      // and `new Decimal(row.amount)` (also `new Prisma.Decimal(…)`): the wrapped value.
      const copies =
        calleeName !== undefined &&
        ((callee.type === 'Identifier' && COLLECTION_CONSTRUCTORS.includes(calleeName)) || DECIMAL_WRAPPERS.includes(calleeName));
      return copies && source && source.type !== 'SpreadElement' ? taintOf(source, env, next) : null;
    }
    case 'CallExpression':
      return taintOfCall(expr, env, next);
    case 'BinaryExpression': {
      if (!ARITHMETIC_OPERATORS.has(expr.operator)) return null;
      // `'' + balance`: a number written as a string, as `String(balance)`; only arithmetic in it counts, as in a template.
      const converted = expr.operator === '+' ? emptyStringJoined(expr) : undefined;
      if (converted) {
        const number = taintOf(converted, env, next);
        return number?.computed ? number : null;
      }
      // `user.first + ' ' + user.last` builds a string; it is not a counter.
      if (expr.operator === '+' && (isStringLike(expr.left) || isStringLike(expr.right))) return null;
      let left = expr.left.type === 'PrivateIdentifier' ? null : taintOf(expr.left, env, next);
      let right = taintOf(expr.right, env, next);
      // Which side is a read decides the operand: a pending read is asked.
      if (left && right) [left, right] = [settled(left), settled(right)];
      const base = unionOf(left, right);
      if (!base) return null;
      let operand: string | null = null;
      const simple = expr.operator === '+' || expr.operator === '-';
      if (simple && left && !left.computed && !right) operand = env.text(expr.right);
      else if (expr.operator === '+' && right && !right.computed && !left) operand = env.text(expr.left);
      return computedFrom(base, { node: expr, operator: expr.operator, operand });
    }
    case 'UnaryExpression': {
      if (expr.operator === '+') return taintOf(expr.argument, env, next);
      if (expr.operator !== '-' && expr.operator !== '~') return null;
      const base = taintOf(expr.argument, env, next);
      return base ? computedFrom(base, { node: expr, operator: expr.operator, operand: null }) : null;
    }
    case 'UpdateExpression': {
      const base = taintOf(expr.argument, env, next);
      return base ? computedFrom(base, { node: expr, operator: expr.operator === '++' ? '+' : '-', operand: '1' }) : null;
    }
    case 'AssignmentExpression':
      return assignedTaint(expr, env, next);
    case 'ConditionalExpression':
      return unionOf(taintOf(expr.consequent, env, next), taintOf(expr.alternate, env, next));
    case 'LogicalExpression':
      return unionOf(taintOf(expr.left, env, next), taintOf(expr.right, env, next));
    case 'SequenceExpression':
      return taintOf(expr.expressions[expr.expressions.length - 1], env, next);
    case 'TemplateLiteral': {
      let found: Taint | null = null;
      for (const part of expr.expressions) found = unionOf(found, taintOf(part, env, next));
      // A template builds a string; only arithmetic inside it (`${row.n + 1}`) counts.
      return found?.computed ? found : null;
    }
    case 'ArrayExpression': {
      let found: Taint | null = null;
      for (const element of expr.elements) {
        if (!element) continue;
        found = unionOf(found, taintOf(element.type === 'SpreadElement' ? element.argument : element, env, next));
      }
      return found;
    }
    case 'ObjectExpression': {
      let found: Taint | null = null;
      for (const property of expr.properties) {
        const value = property.type === 'SpreadElement' ? property.argument : property.value;
        found = unionOf(found, taintOf(value, env, next));
      }
      return found;
    }
    default:
      return null;
  }
}

function unionOfAll(nodes: readonly TSESTree.Node[], env: TaintEnvironment, depth: number): Taint | null {
  let found: Taint | null = null;
  for (const node of nodes) found = unionOf(found, taintOf(node.type === 'SpreadElement' ? node.argument : node, env, depth));
  return found;
}

/** The taint of the `Map` of rows `call` (`map.get(key)`) looks a row up in, or null. */
function keyedLookupOf(call: TSESTree.CallExpression, env: TaintEnvironment): Taint | null {
  const callee = unwrapExpression(call.callee);
  if (callee.type !== 'MemberExpression' || memberPropertyName(callee) !== 'get') return null;
  const map = unwrapExpression(callee.object);
  const held = map.type === 'Identifier' ? settled(env.lookup(map.name) ?? null) : null;
  return held?.keyed ? held : null;
}

function taintOfCall(call: TSESTree.CallExpression, env: TaintEnvironment, depth: number): Taint | null {
  // `byId.get(key)` of a `Map` of loaded rows (keyed-rows.ts): one of the rows, not a loader's answer.
  const rows = keyedLookupOf(call, env);
  if (rows) return { read: keyedRow(rows.read), field: null, computed: null };
  const callee = unwrapExpression(call.callee);
  // runOf(member) returning `[reset, member.visitRun]`: that field of the row handed to it (numeric-helpers.ts).
  const handedBack = callee.type === 'Identifier' ? fieldReturnedBy(call) : undefined;
  if (handedBack) {
    const row = settled(taintOf(handedBack.argument, env, depth));
    return row && !row.computed && row.field === null ? { ...row, field: handedBack.field } : null;
  }
  const read = env.readOf(call);
  if (read) return { read, field: null, computed: null };
  const firstArgument = call.arguments[0];
  if (
    callee.type === 'Identifier' &&
    (VALUE_PASS_THROUGH_FUNCTIONS.includes(callee.name) || DECIMAL_WRAPPERS.includes(callee.name) || DECODING_CALLS.includes(callee.name))
  ) {
    return firstArgument && firstArgument.type !== 'SpreadElement' ? taintOf(firstArgument, env, depth) : null;
  }
  // `_toNumber(x)` of lodash: passes the value through like `Number(x)`.
  if ((callee.type === 'Identifier' || callee.type === 'MemberExpression') && isLibraryConversion(callee))
    return firstArgument && firstArgument.type !== 'SpreadElement' ? taintOf(firstArgument, env, depth) : null;
  // refill(bucket.tokens, bucket.refilledAt, now): a number the module's own function computes from the read (numeric-helpers.ts).
  if (callee.type === 'Identifier' && callsNumericHelper(call)) {
    const found = unionOfAll(call.arguments, env, depth);
    if (!found || found.computed) return found;
    return computedFrom(found, { node: call, operator: 'call', operand: null });
  }
  if (callee.type !== 'MemberExpression') return null;
  const method = memberPropertyName(callee);
  if (method === undefined) return null;
  // Math.max(0, row.balance - amount), Math.round(row.total * 1.1)
  if (callee.object.type === 'Identifier' && callee.object.name === 'Math') {
    let found: Taint | null = null;
    for (const argument of call.arguments) {
      if (argument.type !== 'SpreadElement') found = unionOf(found, taintOf(argument, env, depth));
    }
    if (!found || found.computed) return found;
    return computedFrom(found, { node: call, operator: 'call', operand: null });
  }
  // JSON.parse(row.items): the decoded structure stands for the loaded field; so does a copy (`Array.from(set)`).
  const qualified = callee.object.type === 'Identifier' ? `${callee.object.name}.${method}` : '';
  if (qualified === 'Object.assign') {
    // Into a loaded row, the row itself (its changes are entity-changes.ts'); into a fresh object, what it copies.
    const target = firstArgument && firstArgument.type !== 'SpreadElement' ? settled(taintOf(firstArgument, env, depth)) : null;
    return target && !target.computed && target.field === null ? target : unionOfAll(call.arguments, env, depth);
  }
  if (DECODING_CALLS.includes(qualified) || COPYING_CALLS.includes(qualified)) {
    return firstArgument && firstArgument.type !== 'SpreadElement' ? taintOf(firstArgument, env, depth) : null;
  }
  // `decoder.decode(entry.value)`, `codec.encode(text)`: the value's bytes stand for the value (kv-buckets.ts).
  if (BYTE_CODING_METHODS.includes(method)) return firstArgument?.type === 'SpreadElement' ? null : taintOf(firstArgument, env, depth);
  const receiver = taintOf(callee.object, env, depth);
  if (!receiver) return null;
  // `wallet.get('credits')` of a loaded object (Parse, Sequelize): that field.
  if (method === FIELD_GETTER && !receiver.computed && receiver.field === null && firstArgument?.type === 'Literal')
    return typeof firstArgument.value === 'string' ? { ...receiver, field: firstArgument.value } : null;
  if (VALUE_PASS_THROUGH_METHODS.includes(method) || ELEMENT_METHODS.includes(method) || KV_ENTRY_DECODERS.includes(method))
    return receiver;
  // `account.groups.map(…)`: a new list from a loaded list field stands for that field (list-changes.ts);
  // so does a list mapped from the rows of a read keyed by one (`groups.map((g) => g.id)`).
  if (LIST_COPY_METHODS.includes(method) && !receiver.computed && (receiver.field !== null || receiver.read.keysOf)) return receiver;
  if (ARITHMETIC_METHODS.includes(method)) {
    const simple = method === 'plus' || method === 'add' || method === 'minus' || method === 'sub' || method === 'subtract';
    const operand =
      simple &&
      !receiver.computed &&
      firstArgument &&
      firstArgument.type !== 'SpreadElement' &&
      !settled(taintOf(firstArgument, env, depth))
        ? env.text(firstArgument)
        : null;
    const operator = !simple ? 'call' : method === 'plus' || method === 'add' ? '+' : '-';
    return computedFrom(receiver, { node: call, operator, operand });
  }
  return null;
}

/**
 * Whether `call` may carry a taint without being a read itself (`Number(x)`, `JSON.parse(x)`,
 * `Math.max(…)`, `x.toFixed()`, `x.plus(n)`): `taintOfCall` then looks further than the read.
 */
export function mayCarryTaintUnread(call: TSESTree.CallExpression): boolean {
  const callee = unwrapExpression(call.callee);
  if (callee.type === 'Identifier')
    return (
      VALUE_PASS_THROUGH_FUNCTIONS.includes(callee.name) ||
      DECIMAL_WRAPPERS.includes(callee.name) ||
      DECODING_CALLS.includes(callee.name) ||
      callsNumericHelper(call) ||
      isLibraryConversion(callee)
    );
  if (callee.type !== 'MemberExpression') return false;
  const method = memberPropertyName(callee);
  if (method === undefined) return false;
  const qualified = callee.object.type === 'Identifier' ? `${callee.object.name}.${method}` : '';
  // The lists first: a library's conversion is asked of the program's bindings, found by walking up to it.
  return (
    qualified.startsWith('Math.') ||
    qualified === 'Object.assign' ||
    DECODING_CALLS.includes(qualified) ||
    COPYING_CALLS.includes(qualified) ||
    VALUE_PASS_THROUGH_METHODS.includes(method) ||
    ELEMENT_METHODS.includes(method) ||
    BYTE_CODING_METHODS.includes(method) ||
    KV_ENTRY_DECODERS.includes(method) ||
    ARITHMETIC_METHODS.includes(method) ||
    LIST_COPY_METHODS.includes(method) ||
    isLibraryConversion(callee)
  );
}

/** The change a written value makes, when it was computed in JavaScript from a read. */
export function changeOf(field: string | null, taint: Taint): FieldChange | null {
  const computed = taint.computed;
  if (!computed) return null;
  const simple = (computed.operator === '+' || computed.operator === '-') && computed.operand !== null;
  return {
    field: field ?? computed.target ?? computed.field,
    node: computed.node,
    operator: simple ? (computed.operator as '+' | '-') : null,
    operand: simple ? computed.operand : null,
    readField: computed.field,
  };
}
