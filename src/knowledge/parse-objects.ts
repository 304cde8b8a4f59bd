// Parse Server's JavaScript SDK as `no-read-then-write` sees it: an object read by a query
// (`const query = new Parse.Query('Wallet'); const wallet = await query.first()`), a field read with
// `wallet.get('credits')`, changed in JavaScript, set with `wallet.set('credits', n)` and saved
// (`wallet.save()`) sends the value computed from the read. `wallet.increment('credits', n)` is the
// server's own arithmetic.

/** The query class (`new Parse.Query(className)`), by its namespace and name. */
export const PARSE_QUERY_CLASS = { namespace: 'Parse', name: 'Query' } as const;

/** A query's read of one object (its list reads, `find`, are not followed). */
export const PARSE_OBJECT_READS: readonly string[] = ['first'];

/** A loaded object's getter of one field (`wallet.get('credits')`); Sequelize instances have it too. */
export const FIELD_GETTER = 'get';

/** Parse as a library of `no-read-then-write` (orm-reads-writes.ts), with the atomic form its message names. */
export const PARSE_READS_WRITES = {
  library: 'parse' as const,
  modules: ['parse', 'parse/node'] as readonly string[],
  reads: PARSE_OBJECT_READS,
  writes: ['save'] as readonly string[],
  atomicMethods: ['increment'] as readonly string[],
  lockingMethods: [] as readonly string[],
  atomicForm: "object.increment('{{field}}', n) before save() (the server adds it to the stored value)",
};
