// The claim rule's paired flags read from the text (flag-pairs.ts): the names a file filters
// `false` and writes `true`, found from each `: false` and `= true` backwards. They must be the
// names the earlier expressions gave (`([A-Za-z_$][\w$]*)["']?\s*:\s*false\b` taken match by
// match, then a name written `true` as a key or a member) on every spelling below.
import { describe, expect, it } from 'vitest';
import { pairedFlags } from '../../rules/require-atomic-claim/flag-pairs.js';

describe('pairedFlags', () => {
  it('pairs a key filtered `false` with the same key or member written `true`', () => {
    expect(pairedFlags('find({ where: { expired: false } }); await row.update({ expired: true });')).toEqual(['expired']);
    expect(pairedFlags('where({ lifted: false }); row.lifted = true;')).toEqual(['lifted']);
  });

  it('reads quoted keys and spaces before the colon', () => {
    expect(pairedFlags(`where({ 'expired': false }); patch({ "expired": true });`)).toEqual(['expired']);
    expect(pairedFlags('where({ expired   : false }); patch({ expired  : true });')).toEqual(['expired']);
    expect(pairedFlags('where({ "b" : false }); set({ "b" : true });')).toEqual(['b']);
    expect(pairedFlags('where({ $x: false }); set({ $x: true });')).toEqual(['$x']);
  });

  it('starts a name at its first letter, `_` or `$`', () => {
    expect(pairedFlags('where({ 1abc: false }); set({ abc: true });')).toEqual(['abc']);
  });

  it('takes no name inside the last match (`a: false: false`: `false` is no key)', () => {
    expect(pairedFlags('a: false: false; x = { a: true, false: true }')).toEqual(['a']);
  });

  it('pairs nothing for a plain assignment, a comparison, a longer word or a longer name', () => {
    expect(pairedFlags('where({ lifted: false }); lifted = true;')).toEqual([]);
    expect(pairedFlags('where({ sent: false }); row.sent == true;')).toEqual([]);
    expect(pairedFlags('where({ sent: falsey }); set({ sent: true });')).toEqual([]);
    expect(pairedFlags('where({ sent: false }); set({ sent: trueish });')).toEqual([]);
    expect(pairedFlags('where({ b: false }); set({ ab: true, a.b: true });')).toEqual([]);
  });
});
