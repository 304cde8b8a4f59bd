// Rewrites to increment()/decrement() methods: Knex, Sequelize, TypeORM.
import type { TSESTree } from '@typescript-eslint/utils';
import { unwrapExpression } from '../../../analysis/ast/unwrapped-expression.js';
import type { ReadThenWriteFacts } from '../../../rules/no-read-then-write.js';
import { quoted } from '../../engine/file-style.js';
import type { SourceFileInfo, TextEdit } from '../../engine/transform.js';
import { awaitedStatement, mutationStatement, removal, textOf, usedAfter, valueSlot, type Reason, type ValueSlot } from './source.js';
import { calleeMember, methodName, objectArgument, property, rowsCheck, type Guard, type Simple } from './edit-parts.js';

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

export function knexEdits(file: SourceFileInfo, facts: ReadThenWriteFacts, changes: Simple[], guard: Guard): TextEdit[] | Reason {
  const call = unwrapExpression(facts.write) as TSESTree.CallExpression;
  const member = calleeMember(call);
  if (!member || methodName(call) !== 'update')
    return 'not a knex `.update()` at the end of the chain; use increment()/decrement() by hand';
  const slot = singleValue(file, facts, changes, facts.writeShape.data);
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

export function sequelizeEdits(file: SourceFileInfo, facts: ReadThenWriteFacts, changes: Simple[], guard: Guard): TextEdit[] | Reason {
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
  const slot = singleValue(file, facts, changes, facts.writeShape.data);
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

export function typeormEdits(file: SourceFileInfo, facts: ReadThenWriteFacts, changes: Simple[], guard: Guard): TextEdit[] | Reason {
  if (guard) return 'a checked TypeORM counter; use a query builder UPDATE with the bound in where and check `affected` by hand';
  const call = unwrapExpression(facts.write) as TSESTree.CallExpression;
  const member = calleeMember(call);
  const method = methodName(call);
  const change = changes[0]!;
  const q = file.style.quote;
  if (!member || (method !== 'save' && method !== 'update')) return 'not a TypeORM save()/update(); use increment()/decrement() by hand';
  // `repo.update({ id, points })`: a project repository's own method, whose increment form the codemod cannot know.
  if (method === 'update' && call.arguments.length === 1)
    return "a repository's own update({ id, … }); make it change the value in the database (an atomic increment) by hand";
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
  const slot = singleValue(file, facts, changes, facts.writeShape.data);
  if (typeof slot === 'string') return slot;
  const first = facts.writeShape.filter;
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
