import type { Knex } from 'knex';

export async function expireHolds(knex: Knex): Promise<number> {
  const result = await knex.raw('select pg_try_advisory_lock(?) as acquired', [9_001]);
  if (!result.rows[0].acquired) return 0;
  try {
    return await knex('holds').where('expires_at', '<', knex.fn.now()).del();
  } finally {
    await knex.raw('select pg_advisory_unlock(?)', [9_001]);
  }
}
