// supabase-js's query builder (PostgREST): a table named with `.from('jobs')`, then a read
// (`.select('*')`) or a write (`.update({ … })`, `.delete()`), filtered by methods named for their
// operator with the column first (`.eq('status', 'pending')`, `.lte('run_at', now)`, `.in('id',
// ids)`, `.is('sent_at', null)`) or an object of columns (`.match({ status })`). A client is
// often the project's own module (`lib/supabase`), so chains are known by shape, not by import.

/** The filter methods of a PostgREST query; each is a filter only in a chain that names its table with `.from(…)`. */
export const SUPABASE_FILTER_METHODS: ReadonlySet<string> = new Set([
  'eq',
  'neq',
  'gt',
  'gte',
  'lt',
  'lte',
  'like',
  'ilike',
  'is',
  'in',
  'match',
  'not',
  'contains',
  'containedBy',
  'likeAnyOf',
  'ilikeAnyOf',
]);

/** The link that names a supabase-js query's table (`supabase.from('jobs')`, also after `.schema('app')`). */
export const SUPABASE_TABLE_LINK = 'from';

/** Whether a link named `name` filters rows in a chain of the links `chainNames`: a PostgREST filter of a `.from(…)` query. */
export function isSupabaseFilter(name: string, chainNames: readonly (string | undefined)[]): boolean {
  return SUPABASE_FILTER_METHODS.has(name) && chainNames.includes(SUPABASE_TABLE_LINK);
}

/** supabase-js's modules (the client, and PostgREST's builder on its own). */
export const SUPABASE_MODULES: readonly string[] = ['@supabase/supabase-js', '@supabase/postgrest-js', '@supabase/ssr'];

/** supabase-js's entry of the libraries' reads and writes (orm-reads-writes.ts): PostgREST has no increment, a database function does it. */
export const SUPABASE_READS_WRITES = {
  library: 'supabase' as const,
  modules: SUPABASE_MODULES,
  reads: ['select'] as readonly string[],
  writes: ['update', 'upsert'] as readonly string[],
  atomicMethods: ['rpc'] as readonly string[],
  lockingMethods: [] as readonly string[],
  atomicForm:
    "supabase.rpc(fn, { id, n }) with a SQL function `UPDATE … SET {{field}} = {{field}} + n WHERE id = … AND <the bound> RETURNING …` (PostgREST's update has no increment), and act on the rows it returns",
};
