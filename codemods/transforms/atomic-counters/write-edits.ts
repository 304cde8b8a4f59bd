// The rewrite of one read-then-write, per library: text edits that make the database do the
// `x ± n` (and keep a checked bound in the filter), or the reason it must be done by hand.
import { unwrapExpression } from '../../../analysis/ast/unwrapped-expression.js';
import type { TSESTree } from '@typescript-eslint/utils';
import type { FieldChange, ReadThenWriteFacts } from '../../../rules/no-read-then-write.js';
import { quoted } from '../../engine/file-style.js';
import {
  awaitedStatement,
  boundRewrite,
  mutationStatement,
  negated,
  removal,
  rowsCheckEdits,
  textOf,
  usedAfter,
  valueSlot,
  type BoundRewrite,
  type Reason,
  type ValueSlot,
} from './source.js';
import type { SourceFileInfo, TextEdit } from '../../engine/transform.js';

interface Simple extends FieldChange {
  field: string;
  operator: '+' | '-';
  operand: string;
}

function simpleChanges(facts: ReadThenWriteFacts): Simple[] | Reason {
  if (facts.changes.length === 0) return 'no computed value was found in the write';
  for (const change of facts.changes) {
    if (change.field === null) return 'the write sends a whole object; name the changed field and use the atomic form by hand';
    if (change.operator === null || change.operand === null)
      return `\`${change.field}\` is not changed by a simple \`x ± n\`; do the arithmetic in the database by hand`;
    // `SET balance = $1` with `row.fee + 1`: `balance + 1` would be a different value.
    if (change.readField !== undefined && change.readField?.toLowerCase() !== change.field.toLowerCase())
      return `\`${change.field}\` is written from another field's value; do the arithmetic in the database by hand`;
  }
  return facts.changes as Simple[];
}

function property(object: TSESTree.Node | undefined, name: string): TSESTree.Property | undefined {
  const node = object && unwrapExpression(object);
  if (node?.type !== 'ObjectExpression') return undefined;
  return node.properties.find(
    (p): p is TSESTree.Property =>
      p.type === 'Property' &&
      !p.computed &&
      ((p.key.type === 'Identifier' && p.key.name === name) || (p.key.type === 'Literal' && p.key.value === name)),
  );
}

function objectArgument(node: TSESTree.Node | undefined): TSESTree.ObjectExpression | undefined {
  const object = node && unwrapExpression(node);
  return object?.type === 'ObjectExpression' && object.properties.every((p) => p.type === 'Property') ? object : undefined;
}

/** `{ a }` → `{ a, <text> }`; `{}` → `{ <text> }`. */
function appendProperty(object: TSESTree.ObjectExpression, text: string): TextEdit {
  const last = object.properties.at(-1);
  if (!last) return { start: object.range[0], end: object.range[1], text: `{ ${text} }` };
  return { start: last.range[1], end: last.range[1], text: `, ${text}` };
}

/** Replaces the value of the property the slot is in (a shorthand `{ views }` becomes `views: …`). */
function slotReplacement(file: SourceFileInfo, slot: ValueSlot, value: string): TextEdit[] {
  const parent = slot.node.parent;
  const edits: TextEdit[] = [];
  if (parent?.type === 'Property' && parent.shorthand)
    edits.push({ start: parent.range[0], end: parent.range[1], text: `${textOf(file, parent.key)}: ${value}` });
  else edits.push({ start: slot.node.range[0], end: slot.node.range[1], text: value });
  if (slot.declaration) edits.push(removal(file, slot.declaration));
  return edits;
}

function calleeMember(call: TSESTree.Node): TSESTree.MemberExpression | undefined {
  const node = unwrapExpression(call);
  if (node.type !== 'CallExpression') return undefined;
  const callee = unwrapExpression(node.callee);
  return callee.type === 'MemberExpression' && !callee.computed && callee.property.type === 'Identifier' ? callee : undefined;
}

function methodName(call: TSESTree.Node): string | undefined {
  const member = calleeMember(call);
  return member ? (member.property as TSESTree.Identifier).name : undefined;
}

type Guard = { bound: BoundRewrite; statement: TSESTree.ExpressionStatement } | null;

/** The bound to keep and the `await write;` statement it follows, `null` when unchecked. */
function guardOf(file: SourceFileInfo, facts: ReadThenWriteFacts): Guard | Reason {
  if (!facts.guarded || !facts.boundCheck) return null;
  if (facts.changes.length !== 1) return 'a checked bound with several changed fields; move the bound into the write filter by hand';
  const statement = awaitedStatement(facts.write);
  if (!statement) return 'the checked write is not a plain `await` statement; add the bound and the rows-affected check by hand';
  const bound = boundRewrite(file, facts, statement);
  return typeof bound === 'string' ? bound : { bound, statement };
}

function rowsCheck(file: SourceFileInfo, guard: NonNullable<Guard>, binding: string, failed: string): TextEdit[] | Reason {
  const edits = rowsCheckEdits(file, guard.statement, binding, failed, guard.bound.consequent);
  return typeof edits === 'string' ? edits : [...edits, removal(file, guard.bound.check)];
}

// ---- raw SQL

function sqlEdits(file: SourceFileInfo, facts: ReadThenWriteFacts, changes: Simple[], guard: Guard): TextEdit[] | Reason {
  const write = facts.write;
  const edits: TextEdit[] = [];
  if (write.type === 'TaggedTemplateExpression') {
    // postgres.js / `$executeRaw`: `${row.stock - qty}` → `stock - ${qty}`.
    for (const change of changes) {
      const index = write.quasi.expressions.findIndex((e) => unwrapExpression(e) === change.node);
      const slot = index === -1 ? undefined : write.quasi.expressions[index];
      const direct = slot ? { node: slot } : valueSlot(file, write, change, write.quasi.expressions);
      if (typeof direct === 'string') return direct;
      const before = textOf(file, write.quasi).lastIndexOf('${', direct.node.range[0] - write.quasi.range[0]);
      if (before === -1) return 'the value is not a template placeholder; edit the SQL by hand';
      const at = write.quasi.range[0] + before;
      const head = file.text.slice(write.quasi.range[0], at);
      if (!new RegExp(`\\b${change.field}\\s*=\\s*$`, 'i').test(head))
        return `\`${change.field}\` is not assigned from a single placeholder; edit the SQL by hand`;
      edits.push({ start: at, end: at, text: `${change.field} ${change.operator} ` });
      edits.push({ start: direct.node.range[0], end: direct.node.range[1], text: change.operand });
      if (direct.declaration) edits.push(removal(file, direct.declaration));
    }
    if (guard) {
      const change = changes[0]!;
      const end = write.quasi.range[1] - 1;
      const where = /\bwhere\b/i.test(file.text.slice(write.quasi.range[0], end));
      if (/\breturning\b/i.test(file.text.slice(write.quasi.range[0], end)))
        return 'the UPDATE has RETURNING; add the bound to its WHERE by hand';
      edits.push({ start: end, end, text: ` ${where ? 'AND' : 'WHERE'} ${change.field} - \${${change.operand}} >= 0` });
      const tag = unwrapExpression(write.tag);
      const numeric =
        tag.type === 'MemberExpression' && !tag.computed && tag.property.type === 'Identifier' && tag.property.name.startsWith('$execute');
      const check = numeric ? rowsCheck(file, guard, 'updated', 'updated === 0') : rowsCheck(file, guard, '{ count }', 'count === 0');
      if (typeof check === 'string') return check;
      edits.push(...check);
    }
    return edits;
  }
  const first = write.arguments[0];
  const config = objectArgument(first);
  const sqlNode = config ? property(config, 'text')?.value : first;
  const valuesNode = config ? property(config, 'values')?.value : write.arguments[1];
  if (
    !sqlNode ||
    !(sqlNode.type === 'Literal'
      ? typeof sqlNode.value === 'string'
      : sqlNode.type === 'TemplateLiteral' && sqlNode.expressions.length === 0)
  ) {
    return 'the SQL text is not a string literal at the call (a shared constant or a built string); edit the UPDATE by hand';
  }
  const array = valuesNode && unwrapExpression(valuesNode);
  if (array?.type !== 'ArrayExpression') return 'the query values are not an array literal at the call; edit the UPDATE by hand';
  const raw = textOf(file, sqlNode);
  for (const change of changes) {
    const pattern = new RegExp(`\\b(${change.field}\\s*=\\s*)\\$(\\d+)(?!\\d)`, 'gi');
    const matches = [...raw.matchAll(pattern)];
    const match = matches[0];
    if (matches.length !== 1 || !match)
      return `\`${change.field}\` is not assigned from one \`$n\` parameter (\`?\` placeholders are positional); edit the UPDATE by hand`;
    const element = array.elements[Number(match[2]) - 1];
    if (!element || element.type === 'SpreadElement') return 'the parameter has no value in the array; edit the UPDATE by hand';
    const slot = valueSlot(file, write, change, [element]);
    if (typeof slot === 'string') return slot;
    const at = sqlNode.range[0] + match.index + match[1]!.length;
    edits.push({ start: at, end: at, text: `${change.field} ${change.operator} ` });
    edits.push(...slotReplacement(file, slot, change.operand));
  }
  if (guard) {
    const change = changes[0]!;
    const parameter = new RegExp(`\\b${change.field}\\s*=\\s*\\$(\\d+)`, 'i').exec(raw)![1];
    if (/\breturning\b/i.test(raw)) return 'the UPDATE has RETURNING; add the bound to its WHERE by hand';
    const content = raw.slice(1, -1).replace(/[\s;]+$/, '');
    const end = sqlNode.range[0] + 1 + content.length;
    edits.push({ start: end, end, text: ` ${/\bwhere\b/i.test(raw) ? 'AND' : 'WHERE'} ${change.field} - $${parameter} >= 0` });
    const check = rowsCheck(file, guard, '{ rowCount }', 'rowCount === 0');
    if (typeof check === 'string') return check;
    edits.push(...check);
  }
  return edits;
}

// ---- Prisma: `{ increment | decrement }`; a bound makes it `updateMany` with a `count` check.

function prismaEdits(file: SourceFileInfo, facts: ReadThenWriteFacts, changes: Simple[], guard: Guard): TextEdit[] | Reason {
  const method = methodName(facts.write);
  const args =
    unwrapExpression(facts.write).type === 'CallExpression' ? (unwrapExpression(facts.write) as TSESTree.CallExpression).arguments : [];
  const options = objectArgument(args[0]);
  const data = method === 'upsert' ? objectArgument(property(options, 'update')?.value) : objectArgument(property(options, 'data')?.value);
  if (!options || !data || (method !== 'update' && method !== 'updateMany' && method !== 'upsert'))
    return 'the Prisma write is not `update`/`updateMany`/`upsert` with literal data; use `{ increment }` by hand';
  const edits: TextEdit[] = [];
  for (const change of changes) {
    const slot = valueSlot(
      file,
      facts.write,
      change,
      data.properties.map((p) => (p as TSESTree.Property).value),
    );
    if (typeof slot === 'string') return slot;
    edits.push(...slotReplacement(file, slot, `{ ${change.operator === '+' ? 'increment' : 'decrement'}: ${change.operand} }`));
  }
  if (guard) {
    const where = objectArgument(property(options, 'where')?.value);
    if (method === 'upsert' || !where)
      return 'a checked Prisma write that is not `update` with a literal where; use updateMany with the bound and check count by hand';
    const change = changes[0]!;
    edits.push(appendProperty(where, `${change.field}: { gte: ${change.operand} }`));
    if (method === 'update') {
      const name = calleeMember(facts.write)!.property;
      edits.push({ start: name.range[0], end: name.range[1], text: 'updateMany' });
    }
    const check = rowsCheck(file, guard, '{ count }', 'count === 0');
    if (typeof check === 'string') return check;
    edits.push(...check);
  }
  return edits;
}

// ---- Mongoose: `$inc` (a bound goes into the filter, then `matchedCount`).

function mongooseEdits(file: SourceFileInfo, facts: ReadThenWriteFacts, changes: Simple[], guard: Guard): TextEdit[] | Reason {
  const method = methodName(facts.write);
  const call = unwrapExpression(facts.write) as TSESTree.CallExpression;
  if (method === 'save')
    return 'a loaded document saved back; use Model.updateOne({ _id }, { $inc }) by hand (the document may be used after the save)';
  if (!method || !['updateOne', 'updateMany', 'findOneAndUpdate', 'findByIdAndUpdate'].includes(method))
    return 'not a Mongoose update call; use $inc by hand';
  const update = objectArgument(call.arguments[1]);
  if (!update) return 'the update is not an object literal; use $inc by hand';
  const set = objectArgument(property(update, '$set')?.value);
  const target = set ?? update;
  if (
    target.properties.length !== changes.length ||
    (set && update.properties.length !== 1) ||
    (!set && update.properties.some((p) => textOf(file, (p as TSESTree.Property).key).startsWith('$')))
  ) {
    return 'the update sets other fields too; move the counter into `$inc` by hand';
  }
  const incs: string[] = [];
  for (const change of changes) {
    const slot = valueSlot(
      file,
      facts.write,
      change,
      target.properties.map((p) => (p as TSESTree.Property).value),
    );
    if (typeof slot === 'string') return slot;
    incs.push(`${change.field}: ${change.operator === '+' ? change.operand : negated(change.operand)}`);
  }
  const edits: TextEdit[] = [{ start: update.range[0], end: update.range[1], text: `{ $inc: { ${incs.join(', ')} } }` }];
  if (guard) {
    const filter = objectArgument(call.arguments[0]);
    if (!filter || (method !== 'updateOne' && method !== 'updateMany'))
      return 'a checked write that is not updateOne with a literal filter; add the bound to the filter by hand';
    const change = changes[0]!;
    edits.push(appendProperty(filter, `${change.field}: { $gte: ${change.operand} }`));
    const check = rowsCheck(file, guard, '{ matchedCount }', 'matchedCount === 0');
    if (typeof check === 'string') return check;
    edits.push(...check);
  }
  return edits;
}

// ---- increment()/decrement() methods: Knex, Sequelize, TypeORM.

function incrementName(change: Simple): string {
  return change.operator === '+' ? 'increment' : 'decrement';
}

/** The single `{ field: x ± n }` of the write's values object, or why not. */
function singleValue(
  file: SourceFileInfo,
  facts: ReadThenWriteFacts,
  changes: Simple[],
  values: TSESTree.Node | undefined,
): ValueSlot | Reason {
  const object = objectArgument(values);
  if (changes.length !== 1 || !object || object.properties.length !== 1)
    return 'the write changes other fields too; split out the counter into increment()/decrement() by hand';
  return valueSlot(
    file,
    facts.write,
    changes[0]!,
    object.properties.map((p) => (p as TSESTree.Property).value),
  );
}

function knexEdits(file: SourceFileInfo, facts: ReadThenWriteFacts, changes: Simple[], guard: Guard): TextEdit[] | Reason {
  const call = unwrapExpression(facts.write) as TSESTree.CallExpression;
  const member = calleeMember(call);
  if (!member || methodName(call) !== 'update')
    return 'not a knex `.update()` at the end of the chain; use increment()/decrement() by hand';
  const slot = singleValue(file, facts, changes, call.arguments[0]);
  if (typeof slot === 'string') return slot;
  const change = changes[0]!;
  const q = file.style.quote;
  const edits: TextEdit[] = [
    {
      start: member.property.range[0],
      end: call.range[1],
      text: `${incrementName(change)}(${quoted(change.field, q)}, ${change.operand})`,
    },
  ];
  if (slot.declaration) edits.push(removal(file, slot.declaration));
  if (guard) {
    edits.push({
      start: member.object.range[1],
      end: member.object.range[1],
      text: `.where(${quoted(change.field, q)}, ${quoted('>=', q)}, ${change.operand})`,
    });
    const check = rowsCheck(file, guard, 'updated', 'updated === 0');
    if (typeof check === 'string') return check;
    edits.push(...check);
  }
  return edits;
}

/** A loaded entity's `x.f += n; await save(x);` → the mutation removed and the save replaced. */
function entitySave(
  file: SourceFileInfo,
  facts: ReadThenWriteFacts,
  changes: Simple[],
  entity: TSESTree.Node | undefined,
): { mutation: TSESTree.ExpressionStatement; statement: TSESTree.ExpressionStatement } | Reason {
  if (changes.length !== 1) return 'several fields of the entity change; use increment()/decrement() per field by hand';
  const mutation = mutationStatement(changes[0]!.node);
  if (!mutation) return 'the entity is changed inside a larger expression; use increment()/decrement() by hand';
  const statement = awaitedStatement(facts.write);
  if (!statement) return 'the saved entity is returned or used; increment()/decrement() returns no entity — rewrite by hand';
  const name =
    entity && unwrapExpression(entity).type === 'Identifier' ? (unwrapExpression(entity) as TSESTree.Identifier).name : undefined;
  if (!name) return 'the saved entity is not a local name; use increment()/decrement() by hand';
  if (usedAfter(file, facts.write, name, statement.range[1])) {
    return `\`${name}\` is used after the save and would hold a stale value; use increment()/decrement() and reload by hand`;
  }
  return { mutation, statement };
}

function sequelizeEdits(file: SourceFileInfo, facts: ReadThenWriteFacts, changes: Simple[], guard: Guard): TextEdit[] | Reason {
  if (guard) return 'a checked Sequelize counter; use Model.decrement with the bound in where and check the affected rows by hand';
  const call = unwrapExpression(facts.write) as TSESTree.CallExpression;
  const member = calleeMember(call);
  const method = methodName(call);
  const q = file.style.quote;
  const change = changes[0]!;
  if (!member || (method !== 'save' && method !== 'update')) return 'not a Sequelize save()/update(); use increment()/decrement() by hand';
  if (method === 'save') {
    const saved = entitySave(file, facts, changes, member.object);
    if (typeof saved === 'string') return saved;
    if (call.arguments.length > 0) return 'save() has options (a transaction?); pass them to increment() by hand';
    return [
      removal(file, saved.mutation),
      {
        start: member.property.range[0],
        end: call.range[1],
        text: `${incrementName(change)}(${quoted(change.field, q)}, { by: ${change.operand} })`,
      },
    ];
  }
  const slot = singleValue(file, facts, changes, call.arguments[0]);
  if (typeof slot === 'string') return slot;
  const options = call.arguments[1];
  const optionsObject = objectArgument(options);
  if (options && !optionsObject) return 'the update options are not an object literal; use increment()/decrement() by hand';
  const rest =
    optionsObject && optionsObject.properties.length > 0
      ? `, ${file.text.slice(optionsObject.properties[0]!.range[0], optionsObject.properties.at(-1)!.range[1])}`
      : '';
  const edits: TextEdit[] = [
    {
      start: member.property.range[0],
      end: call.range[1],
      text: `${incrementName(change)}(${quoted(change.field, q)}, { by: ${change.operand}${rest} })`,
    },
  ];
  if (slot.declaration) edits.push(removal(file, slot.declaration));
  return edits;
}

/** The `where` of a TypeORM read on the same repository (`findOneBy(C)`, `findOne({ where: C })`). */
function typeormCriteria(
  file: SourceFileInfo,
  facts: ReadThenWriteFacts,
  receiver: string,
): { entity?: string; criteria: string } | undefined {
  const read = unwrapExpression(facts.read);
  const member = calleeMember(read);
  if (!member || read.type !== 'CallExpression' || textOf(file, member.object) !== receiver) return undefined;
  const method = methodName(read) ?? '';
  const args = [...read.arguments];
  // `manager.findOne(Item, { where })`: the entity first.
  const entity = args.length === 2 && unwrapExpression(args[0]!).type === 'Identifier' ? textOf(file, args.shift()!) : undefined;
  if (method.startsWith('findOneBy'))
    return args[0] && objectArgument(args[0]) ? { ...(entity ? { entity } : {}), criteria: textOf(file, args[0]) } : undefined;
  const where = property(args[0], 'where')?.value;
  return where && objectArgument(where) ? { ...(entity ? { entity } : {}), criteria: textOf(file, where) } : undefined;
}

function typeormEdits(file: SourceFileInfo, facts: ReadThenWriteFacts, changes: Simple[], guard: Guard): TextEdit[] | Reason {
  if (guard) return 'a checked TypeORM counter; use a query builder UPDATE with the bound in where and check `affected` by hand';
  const call = unwrapExpression(facts.write) as TSESTree.CallExpression;
  const member = calleeMember(call);
  const method = methodName(call);
  const change = changes[0]!;
  const q = file.style.quote;
  if (!member || (method !== 'save' && method !== 'update')) return 'not a TypeORM save()/update(); use increment()/decrement() by hand';
  const receiver = textOf(file, member.object);
  const found = typeormCriteria(file, facts, receiver);
  const target = (criteria: string, entity?: string): string =>
    `${incrementName(change)}(${entity ? `${entity}, ` : ''}${criteria}, ${quoted(change.field, q)}, ${change.operand})`;
  if (method === 'save') {
    const saved = entitySave(file, facts, changes, call.arguments.at(-1));
    if (typeof saved === 'string') return saved;
    if (!found || call.arguments.length !== 1)
      return 'the entity was not read with literal criteria on the same repository; use increment() with its key by hand';
    return [
      removal(file, saved.mutation),
      { start: member.property.range[0], end: call.range[1], text: target(found.criteria, found.entity) },
    ];
  }
  const slot = singleValue(file, facts, changes, call.arguments[call.arguments.length - 1]);
  if (typeof slot === 'string') return slot;
  const first = call.arguments[0];
  const criteria =
    first && objectArgument(first) && call.arguments.length === 2
      ? textOf(file, first)
      : found && !found.entity
        ? found.criteria
        : undefined;
  if (!criteria) return 'the update criteria are not an object literal; use increment() with the key by hand';
  const edits: TextEdit[] = [{ start: member.property.range[0], end: call.range[1], text: target(criteria) }];
  if (slot.declaration) edits.push(removal(file, slot.declaration));
  return edits;
}

/** The edits for one finding, or why it needs a human. */
export function atomicWriteEdits(file: SourceFileInfo, facts: ReadThenWriteFacts): TextEdit[] | Reason {
  const changes = simpleChanges(facts);
  if (typeof changes === 'string') return changes;
  const guard = guardOf(file, facts);
  if (typeof guard === 'string') return guard;
  switch (facts.library) {
    case 'sql':
      return sqlEdits(file, facts, changes, guard);
    case 'prisma':
      return prismaEdits(file, facts, changes, guard);
    case 'mongoose':
      return mongooseEdits(file, facts, changes, guard);
    case 'knex':
      return knexEdits(file, facts, changes, guard);
    case 'sequelize':
      return sequelizeEdits(file, facts, changes, guard);
    case 'typeorm':
      return typeormEdits(file, facts, changes, guard);
    default:
      return `${facts.library} has no increment form the codemod writes; do the arithmetic in the database by hand (see the rule message)`;
  }
}
