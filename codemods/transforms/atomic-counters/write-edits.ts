// The rewrite of one read-then-write, per library: text edits that make the database do the
// `x ± n` (and keep a checked bound in the filter), or the reason it must be done by hand.
import type { ReadThenWriteFacts } from '../../../rules/no-read-then-write.js';
import type { SourceFileInfo, TextEdit } from '../../engine/transform.js';
import type { Reason } from './source.js';
import { guardOf, type Simple } from './edit-parts.js';
import { sqlEdits } from './sql-edits.js';
import { mongooseEdits, prismaEdits } from './document-edits.js';
import { knexEdits, sequelizeEdits, typeormEdits } from './increment-edits.js';

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

export function atomicWriteEdits(file: SourceFileInfo, facts: ReadThenWriteFacts): TextEdit[] | Reason {
  if (facts.nextFromHighest)
    return `\`${facts.fields[0] ?? 'the value'}\` is allocated as the largest stored value plus one; let the database allocate it (a sequence, an identity column or a counter row changed atomically), by hand`;
  if (facts.checkedBound)
    return `\`${facts.fields[0] ?? 'the value'}\` is changed in the database, but its bound is checked on the value read; move the bound into the write filter and check the rows changed, by hand`;
  if (facts.writeShape.helper)
    return `written through the project's own \`${facts.writeShape.method}\`; give it an atomic form (the arithmetic in the database) and call that, by hand`;
  if (facts.writeShape.method === 'hook')
    return 'a save hook changes the instance from its own loaded value; increment the column in the database (Model.increment) where the change is decided, by hand';
  const changes = simpleChanges(facts);
  if (typeof changes === 'string') return changes;
  const guard = guardOf(file, facts);
  if (typeof guard === 'string') return guard;
  if (guard?.bound.ceiling && facts.library !== 'prisma')
    return 'an increment checked against a limit; put `field < limit` in the write filter and check the rows affected by hand';
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
