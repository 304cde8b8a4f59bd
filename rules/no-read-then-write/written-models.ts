// Whether a write changes the model a read loaded: the same table (`selectFrom('accounts as a')` and
// `updateTable('accounts')` name one table), or a relation the read loaded with its row (Prisma
// `findUnique({ where, include: { venue: true } })`, TypeORM `relations: ['venue']` or `{ venue: true
// }`) that the write then changes (`prisma.venue.update(…)` with `hall.venue.seats - 1`): the
// related row's values are as stale as the row's own.
import type { TSESTree } from '@typescript-eslint/utils';
import { propertyKeyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import type { ReadSite, WriteSite } from './model.js';
import { modelWord } from './keyed-parameters.js';

/** Options of a read that load related rows with it. */
const RELATION_OPTIONS: ReadonlySet<string> = new Set(['include', 'relations']);

/** The first table name of a model as written (`'accounts as a'` → `accounts`), lower case. */
const table = (model: string): string => model.trim().split(/\s+/)[0]?.toLowerCase() ?? model;

/** The relations a read call loads with its rows, as model words (keyed-parameters.ts): `include: { venue: true }`, `relations: ['venue']`. */
function includedRelations(node: TSESTree.Node): string[] {
  if (node.type !== 'CallExpression') return [];
  const options = node.arguments.find((a): a is TSESTree.ObjectExpression => a.type === 'ObjectExpression');
  const names: string[] = [];
  for (const property of options?.properties ?? []) {
    if (property.type !== 'Property' || !RELATION_OPTIONS.has(propertyKeyName(property) ?? '')) continue;
    const value = unwrapExpression(property.value);
    if (value.type === 'ObjectExpression')
      for (const p of value.properties) if (p.type === 'Property') names.push(propertyKeyName(p) ?? '');
    if (value.type === 'ArrayExpression')
      for (const e of value.elements) if (e?.type === 'Literal' && typeof e.value === 'string') names.push(e.value);
  }
  return names.map(modelWord);
}

/** For `write`: whether a read's rows are of the model it changes (see the file's head). */
export function writtenModelOf(write: WriteSite): (read: ReadSite) => boolean {
  const written = write.model;
  return (read) =>
    read.model === null ||
    written === null ||
    table(read.model) === table(written) ||
    includedRelations(read.node).includes(modelWord(written));
}
