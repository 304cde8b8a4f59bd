// The claim rule's SQL flag pairs read from the text (sql-flag-pairs.ts), and the builder's column
// strings filtered `false` (flag-pairs.ts): which names a file filters off and sets on.
import { describe, expect, it } from 'vitest';
import { sqlPairedFlags } from '../../rules/require-atomic-claim/sql-flag-pairs.js';
import { pairedFlags } from '../../rules/require-atomic-claim/flag-pairs.js';

describe('sqlPairedFlags', () => {
  it('pairs a column filtered 0 or false with the same column set 1 or true', () => {
    expect(sqlPairedFlags('SELECT * FROM t WHERE mailed=0; UPDATE t SET mailed=1 WHERE id=$1')).toEqual(['mailed']);
    expect(
      sqlPairedFlags('select * from t where a = 1 and t.mailed = false; update t set seen = now(), mailed = true where id = ?'),
    ).toEqual(['mailed']);
  });

  it('pairs nothing for JavaScript assignments, a set to another value, or a filter on 1', () => {
    expect(sqlPairedFlags('let count = 0; count = 1;')).toEqual([]);
    expect(sqlPairedFlags('SELECT * FROM t WHERE mailed=0; UPDATE t SET mailed=2 WHERE id=$1')).toEqual([]);
    expect(sqlPairedFlags('SELECT * FROM t WHERE mailed=1; UPDATE t SET mailed=1 WHERE id=$1')).toEqual([]);
    expect(sqlPairedFlags('SELECT * FROM t WHERE mailed=0; UPDATE t SET x=1 WHERE mailed=1')).toEqual([]);
  });
});

describe('pairedFlags on column strings', () => {
  it("pairs `.where('t.synced', '=', false)` and `.where('synced', false)` with a key written true", () => {
    expect(pairedFlags(".where('t.synced', '=', false); .set({ synced: true })")).toEqual(['synced']);
    expect(pairedFlags('.where("synced", false); .update({ synced: true })')).toEqual(['synced']);
  });

  it('pairs nothing for a string argument compared otherwise', () => {
    expect(pairedFlags(".where('synced', '<>', false); .set({ synced: true })")).toEqual([]);
  });
});
