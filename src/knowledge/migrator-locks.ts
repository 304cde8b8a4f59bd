// How each migrator serialises its runs, and which ones migrate a database PostgreSQL's advisory
// lock cannot guard. Plain data, read by `migrate-entrypoint` and the `extract-migrations` codemod.
import type { MigratorLibrary } from './migrators.js';

/**
 * Whether a migrator serialises its runs across processes by itself, so a migrate entrypoint
 * that calls it needs no advisory lock of its own (`optOut`: the option that turns the lock off).
 * What was checked:
 * - knex: `migrate.latest/up/down/rollback` take the row in `knex_migrations_lock` (a second run
 *   fails with "Migration table is already locked").
 * - node-pg-migrate: the runner takes `pg_try_advisory_lock` ("Another migration is already
 *   running") unless `noLock: true`.
 * - prisma: `prisma migrate deploy` takes a PostgreSQL advisory lock (docs, "Advisory locking").
 * - kysely: `Migrator` holds `pg_advisory_xact_lock` through the dialect's migration adapter.
 * - graphile-migrate, postgres-migrations: both run under an advisory lock of their own; so does
 *   postgres-schema-migrations, postgres-migrations' fork (`pg_try_advisory_lock` in its `with-lock`, 7.0.2).
 * - @slonik/migrator: its `SlonikMigrator` (Umzug underneath) holds `pg_advisory_lock` around `up`/`down`.
 * - typeorm (`runMigrations` locks the migrations table at most inside its transaction: waiting
 *   instances then re-run the same migrations, typeorm#4588, open), drizzle (`migrate()` reads
 *   the journal unlocked: drizzle-orm#874, open), umzug (no built-in locking: umzug#518),
 *   mikro-orm (Umzug underneath), sequelize, schema-create, knex-migrate (Umzug over knex's
 *   connection, not knex's lock table): no lock.
 * - db-migrate: no lock taken around `up()` (its runs are not serialised); Mongoose's `syncIndexes()`
 *   is no migrator run at all, and nothing serialises it.
 * - graphile-worker (the job queue's own schema, its utilities' `migrate()`): not checked here,
 *   so counted as taking no lock of its own (the entrypoint's lock is asked for).
 * - migrate-mongo: MongoDB, where the PostgreSQL advisory lock asked of an entrypoint does not exist.
 */
export const MIGRATOR_LOCKS: Readonly<Record<MigratorLibrary, { locksItself: boolean; optOut?: string }>> = {
  knex: { locksItself: true },
  'node-pg-migrate': { locksItself: true, optOut: 'noLock' },
  prisma: { locksItself: true },
  kysely: { locksItself: true },
  'graphile-migrate': { locksItself: true },
  'postgres-migrations': { locksItself: true },
  'slonik-migrator': { locksItself: true },
  typeorm: { locksItself: false },
  drizzle: { locksItself: false },
  umzug: { locksItself: false },
  'mikro-orm': { locksItself: false },
  sequelize: { locksItself: false },
  'schema-create': { locksItself: false },
  'knex-migrate': { locksItself: false },
  'migrate-mongo': { locksItself: true },
  'db-migrate': { locksItself: false },
  'graphile-worker': { locksItself: false },
  mongoose: { locksItself: false },
};

/** Migrators of databases other than SQL ones: PostgreSQL's advisory lock and `runMigrations` do not apply to them. */
export const NOT_SQL_MIGRATORS: ReadonlySet<MigratorLibrary> = new Set(['migrate-mongo']);
