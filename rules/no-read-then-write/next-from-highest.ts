// A number allocated as the largest stored value plus one: `const last = await
// prisma.invoice.findFirst({ orderBy: { number: 'desc' } })` (or `SELECT MAX(seq)`, `aggregate({
// _max })`, a helper named for it: `getMaxTaskNumber(…)`), then `number: last.number + 1` sent in a
// create, insert or update. Two requests or replicas read the same maximum and write the same
// number: a duplicate, or a unique violation that fails one of them. Asked only of `x + <number>`
// expressions in files the rule's text gates let through.
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import type { TSESTree } from '@typescript-eslint/utils';
import {
  ALLOCATING_WRITES,
  ALLOCATION_SERIALISED,
  DESCENDING_HELPERS,
  DESCENDING_WORDS,
  HIGHEST_HELPER_NAME,
  MAX_AGGREGATE_KEY,
  MAX_LINKS,
  ORDER_LINKS,
  ORDER_OPTION_KEYS,
  SQL_ALLOCATING_WRITE,
  SQL_HIGHEST_ROW,
  SQL_MAX,
} from '../../src/knowledge/highest-reads.js';
import { methodChainOf } from '../../analysis/ast/method-chain.js';
import { memberPropertyName, propertyKeyName } from '../../analysis/ast/property-names.js';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import { rewrittenOnlyAfter } from '../../analysis/ast/rewritten-only-after.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { chosenValue } from '../../analysis/ast/chosen-value.js';
import { enclosingFunction } from '../../analysis/sql/enclosing-function.js';
import { sqlOfCall } from '../../analysis/sql/sql-text.js';
import { decidedByDatabase } from '../require-atomic-claim/marker-claims.js';
import type { DataLibrary } from '../../src/knowledge/orm-reads-writes.js';
import { readSiteOf } from './read-site.js';
import { sentThroughList } from './pushed-rows.js';

type Node = TSESTree.Node;

export interface NextFromHighest {
  /** The `x + 1` expression (or `++this.next` for a maximum cached in the process). */
  value: TSESTree.BinaryExpression | TSESTree.UpdateExpression | TSESTree.AssignmentExpression;
  /** The call that sends it; for a cached maximum, the increment that hands the next number out. */
  write: TSESTree.CallExpression | TSESTree.UpdateExpression | TSESTree.AssignmentExpression;
  /** The key it is written under (or the name it was kept in, for SQL parameters). */
  field: string;
  /** The read of the largest value, or the helper call that returns it. */
  read: TSESTree.CallExpression;
  library: DataLibrary;
  /** A running total inserted from the newest row (running-totals.ts), not a largest-plus-one. */
  running?: true;
}

/** What a value was computed from: the call that produced it and the member names taken on the way (`last.number` → `['number']`). */
export interface Origin {
  call: TSESTree.CallExpression;
  fields: string[];
  /** The name the result was kept in (`maxNumber`), when it was. */
  kept: string | undefined;
}

const MAX_HOPS = 6;
const NUMBER_WRAPPERS: ReadonlySet<string> = new Set(['Number', 'parseInt', 'parseFloat', 'BigInt']);

/** Whether `x + <number>` is the shape asked about (the literal on either side); the other operand is returned. */
export function incrementedOperand(node: TSESTree.BinaryExpression): Node | undefined {
  const isStep = (n: Node): boolean => n.type === 'Literal' && typeof n.value === 'number' && n.value > 0;
  if (isStep(node.right) && node.left.type !== 'PrivateIdentifier') return node.left;
  if (isStep(node.left)) return node.right;
  return undefined;
}

/** `(x ?? 0)`, `x || 0`, `Number(x)`, `parseInt(x, 10)`, `+x`, `x!`: the value `x` itself. */
function numericCore(node: Node): Node {
  let value = unwrapExpression(node, { await: true });
  for (let i = 0; i < MAX_HOPS; i++) {
    if (value.type === 'LogicalExpression' && (value.operator === '??' || value.operator === '||')) {
      value = unwrapExpression(value.left, { await: true });
    } else if (value.type === 'UnaryExpression' && value.operator === '+') {
      value = unwrapExpression(value.argument, { await: true });
    } else if (value.type === 'CallExpression' && value.callee.type === 'Identifier' && NUMBER_WRAPPERS.has(value.callee.name)) {
      const first = value.arguments[0];
      if (!first || first.type === 'SpreadElement') return value;
      value = unwrapExpression(first, { await: true });
    } else return value;
  }
  return value;
}

/** The one definition of a local name: its declarator (`const x = …`, `const [x] = …`, `const { x } = …`). */
function definitionOf(identifier: TSESTree.Identifier, sourceCode: Readonly<SourceCode>): { init: Node; fields: string[] } | undefined {
  const variable = scopeVariable(sourceCode, identifier);
  if (!variable || variable.defs.length !== 1) return undefined;
  const def = variable.defs[0];
  if (def?.node.type !== 'VariableDeclarator' || !def.node.init) return undefined;
  // A `let` assigned again before the read (or in a loop around it) holds more than its first value.
  if (!rewrittenOnlyAfter(variable, def.name, identifier)) return undefined;
  // The keys from the declared pattern down to the name, nested patterns included (`{ _max: { number: max } }`).
  const fields: string[] = [];
  let at: Node = def.name as Node;
  while (at !== def.node.id) {
    const property = at.parent;
    // `const [top] = await repo.find(…)`: an element of the rows read, no field taken.
    if (property?.type === 'ArrayPattern') {
      at = property;
      continue;
    }
    if (property?.type !== 'Property' || property.value !== at || property.parent.type !== 'ObjectPattern') return undefined;
    const key = propertyKeyName(property);
    if (!key) return undefined;
    fields.unshift(key);
    at = property.parent;
  }
  return { init: def.node.init, fields };
}

/** `Math.max(a, b)`, `Math.min(a, b)`: the global `Math`'s functions. */
const isMathCall = (call: TSESTree.CallExpression): boolean =>
  call.callee.type === 'MemberExpression' && call.callee.object.type === 'Identifier' && call.callee.object.name === 'Math';

/** The call a value comes from, through names, members and `a ? b : c`, with the member names taken. */
export function originsOf(node: Node, sourceCode: Readonly<SourceCode>, fields: string[], kept: string | undefined, hops = 0): Origin[] {
  if (hops > MAX_HOPS) return [];
  const value = numericCore(node);
  switch (value.type) {
    case 'CallExpression':
      // `Math.max(0, index - 5)` is arithmetic on the values it is given, no read: they may be one. Over a
      // spread list (`Math.max(...rows.map((r) => r.seq))`) it is the largest of what was read.
      if (isMathCall(value) && !value.arguments.some((a) => a.type === 'SpreadElement'))
        return value.arguments.flatMap((a) => originsOf(a, sourceCode, fields, kept, hops + 1));
      return [{ call: value, fields, kept }];
    case 'MemberExpression': {
      const name = memberPropertyName(value);
      const taken = name !== undefined && !/^\d+$/.test(name) ? [name, ...fields] : fields;
      return originsOf(value.object, sourceCode, taken, kept, hops + 1);
    }
    case 'ChainExpression':
      return originsOf(value.expression, sourceCode, fields, kept, hops + 1);
    case 'ConditionalExpression':
      return [
        ...originsOf(value.consequent, sourceCode, fields, kept, hops + 1),
        ...originsOf(value.alternate, sourceCode, fields, kept, hops + 1),
      ];
    case 'Identifier': {
      const definition = definitionOf(value, sourceCode);
      if (!definition) return [];
      const taken = [...definition.fields, ...fields];
      return originsOf(definition.init, sourceCode, taken, kept ?? value.name, hops + 1);
    }
    default:
      return [];
  }
}

const isDescending = (node: Node | undefined): boolean => {
  if (!node) return false;
  const value = unwrapExpression(node);
  if (value.type === 'Literal') return DESCENDING_WORDS.has(String(value.value).toLowerCase());
  if (value.type === 'UnaryExpression' && value.operator === '-') return value.argument.type === 'Literal' && value.argument.value === 1;
  if (value.type === 'MemberExpression') return DESCENDING_WORDS.has((memberPropertyName(value) ?? '').toLowerCase());
  // Prisma's `{ sort: 'desc', nulls: 'last' }`.
  if (value.type === 'ObjectExpression')
    return value.properties.some((p) => p.type === 'Property' && propertyKeyName(p) === 'sort' && isDescending(p.value));
  return false;
};

/** Columns an order option sorts largest first: `{ number: 'desc' }`, `[{ number: 'desc' }]`. */
function descendingKeys(node: Node): string[] {
  const value = unwrapExpression(node);
  if (value.type === 'ArrayExpression') return value.elements.flatMap((e) => (e && e.type !== 'SpreadElement' ? descendingKeys(e) : []));
  if (value.type === 'Literal' && typeof value.value === 'string' && value.value.startsWith('-')) return [value.value.slice(1)];
  if (value.type !== 'ObjectExpression') return [];
  return value.properties.flatMap((p) => {
    if (p.type !== 'Property') return [];
    const key = propertyKeyName(p);
    return key && isDescending(p.value) ? [key] : [];
  });
}

/** The last segment of a column named in a string (`'t.number'` → `number`, `'"number"'` → `number`). */
const columnName = (text: string): string => (text.split('.').pop() ?? text).replace(/["'`]/g, '');

/** Columns a builder link orders largest first: `orderBy('n', 'desc')`, `sort({ n: -1 })`, `sort('-n')`, `orderBy(desc(t.n))`. */
function linkDescendingKeys(call: TSESTree.CallExpression): string[] {
  const [first, second] = call.arguments;
  if (!first || first.type === 'SpreadElement') return [];
  if (first.type === 'Literal' && typeof first.value === 'string' && isDescending(second)) return [columnName(first.value)];
  if (first.type === 'CallExpression' && first.callee.type === 'Identifier' && DESCENDING_HELPERS.has(first.callee.name)) {
    const column = first.arguments[0];
    const name = column && column.type !== 'SpreadElement' ? memberPropertyName(unwrapExpression(column)) : undefined;
    return name ? [name] : [];
  }
  return descendingKeys(first);
}

/** What the read sorts or aggregates: the columns whose largest value it returns, `'any'` for a SQL `MAX(…)`, or nothing. */
export function highestColumns(
  call: TSESTree.CallExpression,
  sourceCode: Readonly<SourceCode>,
): { columns: string[]; any: boolean; locked: boolean } {
  const sql = sqlOfCall(call, sourceCode)?.sql.text;
  if (sql !== undefined) {
    const locked = ALLOCATION_SERIALISED.test(sql);
    if (SQL_MAX.test(sql)) return { columns: [], any: true, locked };
    const row = SQL_HIGHEST_ROW.exec(sql);
    return { columns: row ? [columnName(row[0].replace(/^order\s+by\s+/i, '').split(/\s+/)[0] ?? '')] : [], any: false, locked };
  }
  const columns: string[] = [];
  let any = false;
  for (const link of methodChainOf(call).links) {
    if (link.name !== undefined && ORDER_LINKS.has(link.name)) columns.push(...linkDescendingKeys(link.call));
    if (link.name !== undefined && MAX_LINKS.has(link.name)) any = true;
    for (const argument of link.call.arguments) {
      if (argument.type !== 'ObjectExpression') continue;
      for (const property of argument.properties) {
        if (property.type !== 'Property') continue;
        const key = propertyKeyName(property);
        if (key && ORDER_OPTION_KEYS.has(key)) columns.push(...descendingKeys(property.value));
        if (key === MAX_AGGREGATE_KEY) any = true;
      }
    }
  }
  return { columns, any, locked: readSiteOf(call)?.locked ?? false };
}

/** The name a call is made by (`getMaxNumber` of `this.tasks.getMaxNumber(…)`). */
function calleeName(call: TSESTree.CallExpression): string | undefined {
  const callee = unwrapExpression(call.callee);
  if (callee.type === 'Identifier') return callee.name;
  return callee.type === 'MemberExpression' ? memberPropertyName(callee) : undefined;
}

/** Whether `origin` is the largest stored value of what `field` names: a read of the maximum, or a helper named for it. */
export function isHighest(origin: Origin, field: string, sourceCode: Readonly<SourceCode>): boolean {
  const { columns, any, locked } = highestColumns(origin.call, sourceCode);
  if (locked) return false;
  if (any) return true;
  if (columns.length > 0) return origin.fields.length > 0 && columns.includes(origin.fields[origin.fields.length - 1] as string);
  // A helper named for the maximum: what it returns is a number whose name says what it numbers.
  const name = calleeName(origin.call);
  if (!name || !HIGHEST_HELPER_NAME.test(name)) return false;
  const word = field.toLowerCase();
  return word.length > 1 && [name, origin.kept ?? ''].some((n) => n.toLowerCase().includes(word));
}

export type Sent = { write: TSESTree.CallExpression; field: string | undefined };

/** The write call and key `start` is sent under: a property of an argument (a few objects deep), or a SQL parameter. */
function sentDirectly(start: Node, sourceCode: Readonly<SourceCode>): Sent | undefined {
  let child: Node = start;
  let field: string | undefined;
  for (let parent = start.parent, depth = 0; parent && depth < 8; child = parent, parent = parent.parent, depth++) {
    if (parent.type === 'Property' && parent.value === child) {
      field ??= propertyKeyName(parent);
      continue;
    }
    if (parent.type === 'ObjectExpression' || parent.type === 'ArrayExpression' || parent.type === 'TSAsExpression') continue;
    if (parent.type !== 'CallExpression' || !parent.arguments.includes(child as TSESTree.CallExpressionArgument)) return undefined;
    const method = calleeName(parent);
    // `rows.push({ number: next })`, the list written after (pushed-rows.ts).
    if (method === 'push' && field !== undefined && child.type === 'ObjectExpression')
      return sentThroughList(parent, field, sourceCode, sentDirectly);
    if (child.type === 'ArrayExpression' && field === undefined) {
      const sql = sqlOfCall(parent, sourceCode)?.sql.text;
      return sql !== undefined && SQL_ALLOCATING_WRITE.test(sql) ? { write: parent, field } : undefined;
    }
    return method !== undefined && ALLOCATING_WRITES.has(method) && field !== undefined ? { write: parent, field } : undefined;
  }
  return undefined;
}

/** Where a local name is sent: each read of it checked as `sentDirectly`. */
export function sentThroughName(id: TSESTree.Identifier, sourceCode: Readonly<SourceCode>, field: string | undefined): Sent | undefined {
  const variable = scopeVariable(sourceCode, id);
  for (const reference of variable?.references ?? []) {
    if (!reference.isRead()) continue;
    const identifier = reference.identifier as TSESTree.Identifier;
    const parent = identifier.parent;
    // `await repo.save(task)`, `task.save()`: the whole object, with the field assigned before.
    if (field !== undefined && parent?.type === 'MemberExpression' && parent.object === identifier) {
      const call = parent.parent;
      if (call?.type === 'CallExpression' && call.callee === parent && ALLOCATING_WRITES.has(memberPropertyName(parent) ?? ''))
        return { write: call, field };
      continue;
    }
    if (field !== undefined && parent?.type === 'CallExpression' && parent.arguments.includes(identifier)) {
      const method = calleeName(parent);
      if (method !== undefined && ALLOCATING_WRITES.has(method)) return { write: parent, field };
      continue;
    }
    const sent = field === undefined ? sentDirectly(identifier, sourceCode) : undefined;
    if (sent) return { write: sent.write, field: sent.field ?? id.name };
  }
  return undefined;
}

/** Where `value` is sent: in place, through the `const` it is kept in, or through the object a field of which it is assigned to. */
export function sentBy(start: Node, sourceCode: Readonly<SourceCode>): Sent | undefined {
  // `top ? top.position + 1 : 0`, `(x + 1) || 1`: the choice is what is sent.
  const value = chosenValue(start);
  const parent = value.parent;
  if (parent?.type === 'VariableDeclarator' && parent.init === value && parent.id.type === 'Identifier')
    return sentThroughName(parent.id, sourceCode, undefined);
  if (parent?.type === 'AssignmentExpression' && parent.right === value && parent.operator === '=') {
    const target = parent.left;
    const object = target.type === 'MemberExpression' ? unwrapExpression(target.object) : undefined;
    const field = target.type === 'MemberExpression' ? memberPropertyName(target) : undefined;
    return object?.type === 'Identifier' && field ? sentThroughName(object, sourceCode, field) : undefined;
  }
  return sentDirectly(value, sourceCode);
}

export function libraryOf(read: TSESTree.CallExpression, sourceCode: Readonly<SourceCode>): DataLibrary {
  if (sqlOfCall(read, sourceCode)) return 'sql';
  return readSiteOf(read)?.candidates[0] ?? 'prisma';
}

/** `x + <number>` sent in a write (found by `sentFrom`): the write, what `x` comes from and the key it is written under. */
export function sentIncrement(
  value: TSESTree.BinaryExpression,
  sourceCode: Readonly<SourceCode>,
  sentFrom: (start: Node, sourceCode: Readonly<SourceCode>) => Sent | undefined = sentBy,
): { sent: Sent; origins: Origin[]; field: string } | undefined {
  const operand = value.operator === '+' ? incrementedOperand(value) : undefined;
  if (!operand) return undefined;
  const sent = sentFrom(value, sourceCode);
  if (!sent) return undefined;
  const origins = originsOf(operand, sourceCode, [], undefined);
  const field = sent.field ?? origins.find((o) => o.kept)?.kept;
  return field === undefined ? undefined : { sent, origins, field };
}

/** A transaction lock, a row lock or SERIALIZABLE in the function around the allocation, or a retry on the unique violation. */
export function allocationSerialised(value: Node, write: TSESTree.CallExpression, sourceCode: Readonly<SourceCode>): boolean {
  const fn = enclosingFunction(value);
  return (!!fn && ALLOCATION_SERIALISED.test(sourceCode.getText(fn))) || decidedByDatabase(write, sourceCode as never);
}

/** The max-plus-one `value` is, when it is one sent in a write nothing serialises; `undefined` otherwise. */
export function nextFromHighestOf(value: TSESTree.BinaryExpression, sourceCode: Readonly<SourceCode>): NextFromHighest | undefined {
  const { sent, origins, field } = sentIncrement(value, sourceCode) ?? {};
  if (!sent || !origins || field === undefined) return undefined;
  const origin = origins.find((o) => isHighest(o, field, sourceCode));
  if (!origin || allocationSerialised(value, sent.write, sourceCode)) return undefined;
  return { value, write: sent.write, field, read: origin.call, library: libraryOf(origin.call, sourceCode) };
}
