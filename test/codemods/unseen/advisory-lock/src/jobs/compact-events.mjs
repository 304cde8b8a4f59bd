import postgres from 'postgres';

const sql = postgres(process.env.DATABASE_URL);

export async function compactEvents() {
  const [{ locked }] = await sql`select pg_try_advisory_lock(31337) as locked`;
  if (!locked) return;
  try {
    await sql`delete from events where created_at < now() - interval '30 days'`;
    await sql`vacuum analyze events`;
  } finally {
    await sql`select pg_advisory_unlock(31337)`;
  }
}
