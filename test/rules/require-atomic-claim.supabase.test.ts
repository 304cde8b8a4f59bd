// require-atomic-claim on supabase-js's query builder: rows read with `.from(table).select(…)`
// filtered by a state (`.eq('state', 'queued')`), then each acted on and marked with
// `.update(…).eq('id', row.id)` — or the whole batch marked at once with `.in('id', ids)` — with
// no re-check of the state. A conditional transition (`.eq('state', 'queued')` on the update, its
// rows returned with `.select()` and used) claims the row; a lookup by key is no pending read.
import { ruleTester } from './rule-tester.js';
import { claim } from './claim-report.js';
import { requireAtomicClaim, type RequireAtomicClaimMessageIds } from '../../rules/require-atomic-claim.js';

const lines = (...l: string[]) => l.join('\n');
const rule = requireAtomicClaim as unknown as Parameters<typeof ruleTester.run<RequireAtomicClaimMessageIds, readonly unknown[]>>[1];

/** Queued thumbnails read through the project's supabase client, then each rendered and marked by `mark`. */
const thumbnailer = (...mark: string[]) =>
  lines(
    "import { vault } from '../lib/vault';",
    'export async function renderThumbnails() {',
    '  const { data: pending, error } = await vault',
    "    .from('thumbnails')",
    "    .select('*')",
    "    .eq('state', 'queued')",
    "    .lte('not_before', new Date().toISOString())",
    '    .limit(25);',
    '  if (error || !pending) return;',
    '  for (const thumb of pending) {',
    ...mark.map((l) => `    ${l}`),
    '  }',
    '}',
  );

/** Queued exports read, their keys marked `busy` at once by `mark`, then rendered side by side. */
const batch = (...mark: string[]) =>
  lines(
    "import { vault } from '@/lib/vault';",
    'export async function POST() {',
    "  const { data: waiting } = await vault.from('exports').select('*').eq('state', 'waiting').limit(10);",
    '  if (!waiting?.length) return Response.json({ done: 0 });',
    '  const keys = waiting.map((w) => w.id);',
    ...mark.map((l) => `  ${l}`),
    '  await Promise.all(waiting.map((w) => buildArchive(w)));',
    '  return Response.json({ done: waiting.length });',
    '}',
  );

ruleTester.run('require-atomic-claim (supabase-js)', rule, {
  valid: [
    // the state re-checked on the update, and the row acted on only when this replica changed it
    thumbnailer(
      "const { data: mine } = await vault.from('thumbnails').update({ state: 'rendering' }).eq('id', thumb.id).eq('state', 'queued').select();",
      'if (!mine?.length) continue;',
      'await paint(thumb);',
    ),
    // the same with `.match({ … })`
    thumbnailer(
      "const { data: mine } = await vault.from('thumbnails').update({ state: 'rendering' }).match({ id: thumb.id, state: 'queued' }).select();",
      'if (mine?.length) await paint(thumb);',
    ),
    // the batch claimed with the state in the update's filter; only the rows it returns are built
    lines(
      "import { vault } from '@/lib/vault';",
      'export async function POST() {',
      "  const { data: waiting } = await vault.from('exports').select('id').eq('state', 'waiting').limit(10);",
      '  const keys = waiting.map((w) => w.id);',
      "  const { data: mine } = await vault.from('exports').update({ state: 'busy' }).in('id', keys).eq('state', 'waiting').select();",
      '  await Promise.all(mine.map((w) => buildArchive(w)));',
      '}',
    ),
    // one row looked up by its key is no pending read
    lines(
      "import { vault } from '../lib/vault';",
      'export async function retry(id) {',
      "  const { data: row } = await vault.from('thumbnails').select('*').eq('id', id).single();",
      "  await vault.from('thumbnails').update({ state: 'queued' }).eq('id', row.id);",
      '}',
    ),
    // `eq` outside a `.from(…)` chain is no filter (an assertion library's)
    lines(
      'export async function check(list) {',
      "  const rows = await list.select('state');",
      '  for (const row of rows) {',
      "    verify(row).eq('state', 'queued');",
      "    await audit.update({ seen: true }).eq('id', row.id);",
      '  }',
      '}',
    ),
  ],
  invalid: [
    // each row marked by its key alone after the work
    claim(
      thumbnailer(
        'await paint(thumb);',
        "await vault.from('thumbnails').update({ state: 'done', drawn_at: new Date().toISOString() }).eq('id', thumb.id);",
      ),
      "from('thumbnails')",
      'state',
      'vault.from(',
    ),
    // the state re-checked, but the result thrown away: both replicas draw
    claim(
      thumbnailer(
        "await vault.from('thumbnails').update({ state: 'rendering' }).eq('id', thumb.id).eq('state', 'queued');",
        'await paint(thumb);',
      ),
      "from('thumbnails')",
      'state',
      'vault.from(',
    ),
    // the batch marked `busy` by its keys alone before the work: two requests both mark and both build
    claim(batch("await vault.from('exports').update({ state: 'busy' }).in('id', keys);"), "from('exports')", 'state', 'vault.from('),
  ],
});
