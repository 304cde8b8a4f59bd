import { knex } from '../knex';

export const purgeAuditLog = async (): Promise<void> => {
  const { rows } = await knex.raw('SELECT pg_try_advisory_lock(?) AS ok', [6006]);
  if (!rows[0].ok) return;
  try {
    await knex('audit_log').where('created_at', '<', knex.raw("now() - interval '180 days'")).del();
  } finally {
    await knex.raw('SELECT pg_advisory_unlock(?)', [6006]);
  }
};
