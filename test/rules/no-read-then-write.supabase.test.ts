// no-read-then-write on supabase-js's query builder: a row read with `.from(table).select(…)`,
// a count changed in JavaScript and written back with `.update({ … }).eq('id', …)`. The message
// shows PostgREST's way to do the arithmetic in the database (a SQL function called with `rpc`).
// Quiet: the old value compared in the update's filter with its rows returned and used (a
// compare-and-set), an `rpc` doing the arithmetic, and a write that copies no changed value.
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noReadThenWrite as unknown as Parameters<typeof ruleTester.run<string, readonly unknown[]>>[1];

/** A badge row read by key, then `write` (which may use `badge`). */
const badge = (...write: string[]) =>
  lines(
    "import { vault } from '../lib/vault';",
    'export async function pinBadge(badgeId, by) {',
    "  const { data: badge } = await vault.from('badges').select('*').eq('id', badgeId).single();",
    ...write.map((l) => `  ${l}`),
    '}',
  );

/** Queued beacons read, each sent; on failure its tries written back as `retry`. */
const beaconer = (retry: string) =>
  lines(
    "import { vault } from './vault.js';",
    'export async function sendBeacons() {',
    "  const { data: queued } = await vault.from('beacons').select('*').eq('state', 'queued').limit(20);",
    '  for (const beacon of queued ?? []) {',
    '    try {',
    '      await dispatchBeacon(beacon);',
    '    } catch (err) {',
    '      const tries = beacon.tries + 1;',
    `      ${retry}`,
    '    }',
    '  }',
    '}',
  );

ruleTester.run('no-read-then-write (supabase-js)', rule, {
  valid: [
    // the old value compared in the filter, and the rows changed used: a compare-and-set
    badge(
      "const { data: changed } = await vault.from('badges').update({ holders: badge.holders + by }).eq('id', badgeId).eq('holders', badge.holders).select();",
      "if (!changed?.length) throw new Error('changed meanwhile');",
    ),
    // the arithmetic in the database
    badge("await vault.rpc('add_holders', { badge_id: badgeId, n: by });"),
    // a write that copies nothing changed from the read
    badge("await vault.from('badges').update({ title: 'gold', kind: badge.kind }).eq('id', badgeId);"),
    beaconer("await vault.from('beacons').update({ state: 'failed', error: String(err) }).eq('id', beacon.id);"),
  ],
  invalid: [
    {
      code: badge("await vault.from('badges').update({ holders: badge.holders + by }).eq('id', badgeId);"),
      errors: [{ messageId: 'supabase', line: 4, column: 30 }],
    },
    {
      code: beaconer("await vault.from('beacons').update({ tries: tries, error: String(err) }).eq('id', beacon.id);"),
      errors: [{ messageId: 'supabase', line: 9, column: 35 }],
    },
    {
      code: beaconer("if (tries >= 5) await vault.from('beacons').update({ state: 'failed', tries }).match({ id: beacon.id });"),
      errors: [{ messageId: 'supabase', line: 9, column: 51 }],
    },
  ],
});
