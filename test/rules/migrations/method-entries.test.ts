// The method entries a file can match (rules/migrations/method-entries.ts), found in one scan of
// its text: the same entries as asking each entry's words of the text one by one, including where
// one catalogue word starts inside or at the start of another (`up` in `updateSchema`).
import { describe, expect, test } from 'vitest';
import { hasEvidence, possibleMethodEntries } from '../../../rules/migrations/method-entries.js';
import { SCHEMA_WRITE_METHODS, viaWord, type SchemaWriteMethod } from '../../../src/knowledge/migrators.js';

/** The entries by asking each entry's words on their own. */
function oneByOne(modules: ReadonlySet<string>, text: string) {
  const holds = (words: readonly (string | RegExp)[]): boolean => words.some((w) => typeof w === 'string' && text.includes(w));
  const out: { own: SchemaWriteMethod[]; borrowed: SchemaWriteMethod[]; byOptions: SchemaWriteMethod[] } = {
    own: [],
    borrowed: [],
    byOptions: [],
  };
  for (const m of SCHEMA_WRITE_METHODS) {
    if ((m.via !== undefined && !text.includes(viaWord(m.via))) || !holds(m.methods)) continue;
    if (hasEvidence(m, modules)) out.own.push(m);
    else if (holds(m.evidence ?? [])) out.borrowed.push(m);
    else if (m.optionKeys) out.byOptions.push(m);
  }
  return out;
}

const TEXTS = [
  '',
  'await reportStore.updateSchema(plan);',
  'const backupsMigrator = orm.getMigrator(); await backupsMigrator.down();',
  "import { Sequelize } from 'sequelize-typescript'; await models.sequelize.sync({ alter: true });",
  "const ledger = require('./ledger'); ledger.sequelize.sync();",
  'await warehouse.migrate.latest(); await warehouse.migrate.rollback();',
  'setupReport(); pickupLatest(); dropSchemas(); ensureDatabases();',
  'conn.sync({ force: true }); invoices.synchronize();',
];

describe('possibleMethodEntries', () => {
  for (const text of TEXTS) {
    for (const modules of [new Set<string>(), new Set(['sequelize', 'typeorm', 'umzug', 'kysely'])]) {
      test(`${JSON.stringify(text)} importing ${[...modules].join(', ') || 'nothing'}`, () => {
        expect(possibleMethodEntries(modules, text)).toEqual(oneByOne(modules, text));
      });
    }
  }

  test('a method name found only inside a longer catalogue word still counts', () => {
    const entries = possibleMethodEntries(new Set(['umzug']), 'await releases.updateSchema();');
    expect(entries.own.some((m) => m.library === 'umzug')).toBe(true);
  });
});
