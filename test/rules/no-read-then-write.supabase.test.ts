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
    "import { cloud } from '../lib/cloud';",
    'export async function award(badgeId, by) {',
    "  const { data: badge } = await cloud.from('badges').select('*').eq('id', badgeId).single();",
    ...write.map((l) => `  ${l}`),
    '}',
  );

/** Queued pings read, each sent; on failure its tries written back as `retry`. */
const pinger = (retry: string) =>
  lines(
    "import { cloud } from './cloud.js';",
    'export async function sendPings() {',
    "  const { data: queued } = await cloud.from('pings').select('*').eq('state', 'queued').limit(20);",
    '  for (const ping of queued ?? []) {',
    '    try {',
    '      await deliver(ping);',
    '    } catch (err) {',
    '      const tries = ping.tries + 1;',
    `      ${retry}`,
    '    }',
    '  }',
    '}',
  );

ruleTester.run('no-read-then-write (supabase-js)', rule, {
  valid: [
    // the old value compared in the filter, and the rows changed used: a compare-and-set
    badge(
      "const { data: changed } = await cloud.from('badges').update({ holders: badge.holders + by }).eq('id', badgeId).eq('holders', badge.holders).select();",
      "if (!changed?.length) throw new Error('changed meanwhile');",
    ),
    // the arithmetic in the database
    badge("await cloud.rpc('add_holders', { badge_id: badgeId, n: by });"),
    // a write that copies nothing changed from the read
    badge("await cloud.from('badges').update({ title: 'gold', kind: badge.kind }).eq('id', badgeId);"),
    pinger("await cloud.from('pings').update({ state: 'failed', error: String(err) }).eq('id', ping.id);"),
  ],
  invalid: [
    {
      code: badge("await cloud.from('badges').update({ holders: badge.holders + by }).eq('id', badgeId);"),
      errors: [{ messageId: 'supabase', line: 4, column: 30 }],
    },
    {
      code: pinger("await cloud.from('pings').update({ tries: tries, error: String(err) }).eq('id', ping.id);"),
      errors: [{ messageId: 'supabase', line: 9, column: 33 }],
    },
    {
      code: pinger("if (tries >= 5) await cloud.from('pings').update({ state: 'failed', tries }).match({ id: ping.id });"),
      errors: [{ messageId: 'supabase', line: 9, column: 49 }],
    },
  ],
});
