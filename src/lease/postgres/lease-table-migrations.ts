// Ready migrations that create the lease table, one per supported migrator. Each takes what it
// needs from the migrator as a parameter (a knex instance, kysely's `sql`, …), so replica-guard
// imports none of them. Drop one into the service's migrations; the migrate entrypoint runs it.
import { InvalidArgumentError, UnknownClientError } from '../../errors.js';
import { isPgLike, pgSqlClient } from './clients/pg-client.js';
import { isPostgresJsLike, postgresJsSqlClient } from './clients/postgres-js-client.js';
import { dropLeaseTableStatements, leaseTableDDL, leaseTableStatements, toScript } from './lease-table-ddl.js';
import { DEFAULT_LEASE_TABLE } from './lease-table-name.js';

/** A migration as most JS migrators model it: `up` and `down` over the migrator's handle. */
export interface UpDownMigration<Handle> {
  up(handle: Handle): Promise<void>;
  down(handle: Handle): Promise<void>;
}

async function runEach(statements: readonly string[], execute: (statement: string) => unknown): Promise<void> {
  for (const statement of statements) await execute(statement);
}

/** knex: `export const { up, down } = leaseTableKnexMigration();` in a migration file. */
export function leaseTableKnexMigration(tableName?: string): UpDownMigration<{ raw(sql: string): PromiseLike<unknown> }> {
  const create = leaseTableStatements(tableName);
  const drop = dropLeaseTableStatements(tableName);
  return {
    up: (knex) => runEach(create, (statement) => knex.raw(statement)),
    down: (knex) => runEach(drop, (statement) => knex.raw(statement)),
  };
}

/** node-pg-migrate: `export const { up, down } = leaseTableNodePgMigration();`. */
export function leaseTableNodePgMigration(tableName?: string): {
  up(pgm: { sql(sql: string): void }): void;
  down(pgm: { sql(sql: string): void }): void;
} {
  const create = leaseTableStatements(tableName);
  const drop = dropLeaseTableStatements(tableName);
  return {
    up: (pgm) => create.forEach((statement) => pgm.sql(statement)),
    down: (pgm) => drop.forEach((statement) => pgm.sql(statement)),
  };
}

export interface TypeOrmLeaseMigrationOptions {
  tableName?: string;
  /**
   * The 13-digit JavaScript timestamp TypeORM orders migrations by (it must end the migration's
   * name). Default 1764720000000 (2025-12-03).
   */
  timestamp?: number;
}

/** TypeORM: `migrations: [leaseTableTypeOrmMigration()]` (a MigrationInterface class). */
export function leaseTableTypeOrmMigration(options: TypeOrmLeaseMigrationOptions = {}): new () => {
  readonly name: string;
  up(queryRunner: { query(sql: string): Promise<unknown> }): Promise<void>;
  down(queryRunner: { query(sql: string): Promise<unknown> }): Promise<void>;
} {
  const create = leaseTableStatements(options.tableName);
  const drop = dropLeaseTableStatements(options.tableName);
  const timestamp = options.timestamp ?? 1764720000000;
  if (!Number.isInteger(timestamp) || String(timestamp).length !== 13) {
    throw new InvalidArgumentError(
      `TypeORM migration timestamp must be a 13-digit JavaScript timestamp (Date.now()), got ${String(timestamp)}`,
    );
  }
  const name = `ReplicaGuardLeases${timestamp}`;
  return class ReplicaGuardLeasesMigration {
    readonly name = name;
    async up(queryRunner: { query(sql: string): Promise<unknown> }): Promise<void> {
      await runEach(create, (statement) => queryRunner.query(statement));
    }
    async down(queryRunner: { query(sql: string): Promise<unknown> }): Promise<void> {
      await runEach(drop, (statement) => queryRunner.query(statement));
    }
  };
}

interface KyselySqlTag {
  raw(sql: string): { execute(db: never): Promise<unknown> };
}

/** Kysely: `export const { up, down } = leaseTableKyselyMigration(sql);` with `sql` from 'kysely'. */
export function leaseTableKyselyMigration<Db>(sql: KyselySqlTag, tableName?: string): UpDownMigration<Db> {
  const create = leaseTableStatements(tableName);
  const drop = dropLeaseTableStatements(tableName);
  const execute = (db: Db) => (statement: string) => sql.raw(statement).execute(db as never);
  return {
    up: (db) => runEach(create, execute(db)),
    down: (db) => runEach(drop, execute(db)),
  };
}

/**
 * Drizzle: the body of a custom SQL migration (`drizzle-kit generate --custom --name
 * replica_guard_leases`), statements split by drizzle's `--> statement-breakpoint`.
 */
export function leaseTableDrizzleSql(tableName?: string): string {
  return toScript(leaseTableStatements(tableName), '\n--> statement-breakpoint\n');
}

/**
 * Prisma: the `migration.sql` of `prisma/migrations/<timestamp>_replica_guard_leases/`, applied
 * by `prisma migrate deploy`. Add `leaseTablePrismaModel()` to schema.prisma too, or the next
 * `prisma migrate dev` sees a table it does not know and writes a migration dropping it.
 */
export function leaseTablePrismaSql(tableName?: string): string {
  return leaseTableDDL(tableName);
}

/** The schema.prisma model matching the lease table (unqualified table names only). */
export function leaseTablePrismaModel(tableName: string = DEFAULT_LEASE_TABLE): string {
  leaseTableStatements(tableName); // validates the name
  const [schema, table] = tableName.includes('.') ? tableName.split('.') : [undefined, tableName];
  return [
    'model ReplicaGuardLease {',
    '  key       String   @id',
    '  owner     String',
    '  expiresAt DateTime @map("expires_at") @db.Timestamptz(6)',
    '  fence     BigInt   @default(0)',
    '',
    '  @@index([expiresAt])',
    `  @@map("${table}")`,
    ...(schema ? [`  @@schema("${schema}")`] : []),
    '}',
    '',
  ].join('\n');
}

type UmzugContext =
  { query(sql: string): unknown } | { sequelize: { query(sql: string): Promise<unknown> } } | ((...args: never[]) => unknown);

export interface UmzugLeaseMigrationOptions {
  tableName?: string;
  /** The migration's name in Umzug's storage (default `replica-guard-leases`). */
  name?: string;
}

/**
 * Umzug: one entry of `migrations: [...]`. The Umzug `context` may be a pg Pool/Client, a
 * postgres.js `sql`, or a Sequelize QueryInterface.
 */
export function leaseTableUmzugMigration(options: UmzugLeaseMigrationOptions = {}): {
  name: string;
  up(params: { context: UmzugContext }): Promise<void>;
  down(params: { context: UmzugContext }): Promise<void>;
} {
  const create = leaseTableStatements(options.tableName);
  const drop = dropLeaseTableStatements(options.tableName);
  return {
    name: options.name ?? 'replica-guard-leases',
    up: ({ context }) => runEach(create, executorFor(context)),
    down: ({ context }) => runEach(drop, executorFor(context)),
  };
}

function executorFor(context: UmzugContext): (statement: string) => Promise<unknown> {
  if (isPostgresJsLike(context)) {
    const sql = postgresJsSqlClient(context);
    return (statement) => sql.run(statement, []);
  }
  const sequelize = (context as { sequelize?: { query?: unknown } }).sequelize;
  if (sequelize && typeof sequelize.query === 'function') {
    return (statement) => (sequelize as { query(sql: string): Promise<unknown> }).query(statement);
  }
  if (isPgLike(context)) {
    const pg = pgSqlClient(context);
    return (statement) => pg.run(statement, []);
  }
  throw new UnknownClientError(
    'leaseTableUmzugMigration: the Umzug context must be a pg Pool/Client, a postgres.js sql or a Sequelize QueryInterface',
  );
}
