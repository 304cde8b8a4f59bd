// The baseline follow-up per migrator: once the migrate entrypoint is the only writer of schema,
// what the team must do for a database that already exists so that the entrypoint's first run
// neither re-runs migrations nor trips over tables that some other path built. Each text names the
// library's own history table and the command that records a baseline (docs/codemods/extract-migrations.md,
// "Existing databases").
import type { TSESTree } from '@typescript-eslint/utils';
import type { Finding } from '../../../rules/utils/create-rule.js';
import type { NoInAppMigrationsFacts } from '../../../rules/no-in-app-migrations.js';
import { prismaSchemaCommand, type MigratorLibrary } from '../../../src/knowledge/migrators.js';

/**
 * How the removed path wrote schema: `history` — a migrator that records what it ran in a table;
 * `sync` — the schema was built from the models with no history (TypeORM `synchronize`, Sequelize
 * `sync()`, MikroORM's schema generator, `prisma db push`).
 */
export type SchemaPath = 'history' | 'sync';

/** What one removed finding says about the migrator and how it wrote schema; undefined for flags and runners. */
export function schemaPathOf(facts: NoInAppMigrationsFacts, text: string): { library: MigratorLibrary; path: SchemaPath } | undefined {
  if (facts.kind === 'option') return { library: facts.library, path: facts.option === 'synchronize' ? 'sync' : 'history' };
  if (facts.kind !== 'call' && facts.kind !== 'command') return undefined;
  if (facts.kind === 'command') {
    // Prisma's `db push` and TypeORM's `schema:sync` build the schema without a history.
    const spawned = text.slice(facts.call.range[0], facts.call.range[1]);
    const sync = /\bdb push\b/.test(prismaSchemaCommand(spawned) ?? '') || /\bschema:sync\b/.test(spawned);
    return { library: facts.library, path: sync ? 'sync' : 'history' };
  }
  const method = calledMethod(facts.call);
  const sync =
    facts.library === 'sequelize' ||
    (facts.library === 'typeorm' && method === 'synchronize') ||
    (facts.library === 'mikro-orm' && /Schema$|^refreshDatabase$|^ensureDatabase$/.test(method ?? ''));
  return { library: facts.library, path: sync ? 'sync' : 'history' };
}

function calledMethod(call: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression): string | undefined {
  const callee = call.type === 'CallExpression' ? call.callee : call.tag;
  return callee.type === 'MemberExpression' && callee.property.type === 'Identifier' ? callee.property.name : undefined;
}

/** Per library and path: what to do for an existing database. `sync` falls back to `history` when absent. */
const FOLLOW_UPS: Partial<Record<MigratorLibrary, { history: string; sync?: string }>> = {
  typeorm: {
    history:
      'the `migrations` table already records which migrations ran, so the migrate step runs only new ones: nothing to do for an existing database',
    sync: '`synchronize` built the schema, so no migration describes it and the first run would create tables that exist. Generate a baseline from the entities against an empty database (`npx typeorm migration:generate -d <data-source> src/migrations/Baseline`), then, while it is the only pending migration, record it as run on each existing database without running it (`npx typeorm migration:run -d <data-source> --fake`)',
  },
  prisma: {
    history:
      '`prisma migrate deploy` applies only what `_prisma_migrations` lacks: nothing to do for a database migrated with `migrate dev`/`migrate deploy` (check with `npx prisma migrate status`)',
    sync: '`prisma db push` built the schema without a migration history. Create a baseline (`mkdir -p prisma/migrations/0_init && npx prisma migrate diff --from-empty --to-schema-datamodel prisma/schema.prisma --script > prisma/migrations/0_init/migration.sql`) and mark it applied on each existing database (`npx prisma migrate resolve --applied 0_init`)',
  },
  knex: {
    history:
      '`knex_migrations` records which migrations ran: nothing to do for a database that has it (`npx knex migrate:list`). The entrypoint must read the same migrations directory: knex refuses to run when a recorded migration file is missing',
  },
  sequelize: {
    history: '`SequelizeMeta` records which migrations ran: nothing to do for a database that has it',
    sync: "`sync()` built the tables without a migration history. Write a baseline migration that creates today's schema (start from `pg_dump --schema-only`) and record it as run on each existing database by inserting its file name into `SequelizeMeta` (the table of sequelize-cli and Umzug's `SequelizeStorage`; neither has a command that marks a migration as run)",
  },
  umzug: {
    history:
      "Umzug records what ran in its `storage`: nothing to do when that is a table in this database (`SequelizeStorage`'s `SequelizeMeta`, a custom storage). With `JSONStorage` (`umzug.json`) or `memoryStorage` the record is on one pod's disk or in memory: move to a database storage and fill it with the names of the migrations already applied before the first run",
  },
  drizzle: {
    history:
      'the migrator records what ran in `drizzle.__drizzle_migrations` and applies only migrations newer than its latest `created_at`: nothing to do for a database that has it. If the schema came from `drizzle-kit push`, generate the baseline (`npx drizzle-kit generate`) and record it as applied on each existing database by inserting a row into `drizzle.__drizzle_migrations` (`hash`: the SHA-256 of its SQL file, `created_at`: its `when` in `meta/_journal.json`); drizzle-kit has no command for this',
  },
  'mikro-orm': {
    history: '`mikro_orm_migrations` records which migrations ran: nothing to do for a database that has it',
    sync: 'the schema generator built the schema without a migration history: `npx mikro-orm migration:create --initial` writes an initial migration from the entities and, where the schema already exists, records it as executed; on each other existing database insert its name into `mikro_orm_migrations`',
  },
  kysely: {
    history:
      '`kysely_migration` records which migrations ran: nothing to do for a database that has it. Kysely has no baseline command: if the schema came from elsewhere, write a baseline migration and insert its name and a timestamp into `kysely_migration` on each existing database',
  },
  'node-pg-migrate': {
    history:
      '`pgmigrations` records which migrations ran: nothing to do for a database that has it. To record a baseline as run without running it: `npx node-pg-migrate up --fake`',
  },
  'graphile-migrate': {
    history:
      '`graphile_migrate.migrations` records which committed migrations ran: nothing to do for a database that has it. graphile-migrate has no command that records a migration as run: if the schema came from elsewhere, write the first committed migration idempotently (`create table if not exists …`, as graphile-migrate advises for every migration), so its first run on an existing database applies nothing and records it',
  },
  'postgres-migrations': {
    history:
      'the `migrations` table records which migrations ran, with a hash of each file that must never change: nothing to do for a database that has it. postgres-migrations has no command that records a migration as run: if the schema came from elsewhere, write the first migration idempotently (`create table if not exists …`), so its first run on an existing database applies nothing and records it',
  },
};

const NAMES: Partial<Record<MigratorLibrary, string>> = {
  typeorm: 'TypeORM',
  prisma: 'Prisma',
  knex: 'knex',
  sequelize: 'Sequelize',
  umzug: 'Umzug',
  drizzle: 'Drizzle',
  'mikro-orm': 'MikroORM',
  kysely: 'Kysely',
  'node-pg-migrate': 'node-pg-migrate',
  'graphile-migrate': 'graphile-migrate',
  'postgres-migrations': 'postgres-migrations',
};

/** One follow-up per migrator the run took out of the app (a `sync` path wins over `history`), in a stable order. */
export function baselineFollowUps(paths: ReadonlyMap<MigratorLibrary, SchemaPath>): string[] {
  const out: string[] = [];
  for (const [library, texts] of Object.entries(FOLLOW_UPS) as Array<[MigratorLibrary, { history: string; sync?: string }]>) {
    const path = paths.get(library);
    if (!path) continue;
    out.push(`baseline (${NAMES[library]}): ${(path === 'sync' && texts.sync) || texts.history}`);
  }
  return out;
}

/**
 * The migrators and schema paths of the findings a run removed: detected in each changed file's
 * text before the run and not after it (a finding left manual still stands and does not count).
 */
export function removedSchemaPaths(
  changed: Iterable<{ path: string; before: string; after: string }>,
  detect: (path: string, text: string) => ReadonlyArray<Finding<string, NoInAppMigrationsFacts>>,
): Map<MigratorLibrary, SchemaPath> {
  const paths = new Map<MigratorLibrary, SchemaPath>();
  for (const { path, before, after } of changed) {
    const left = new Map<string, number>();
    for (const finding of detect(path, after)) {
      const found = schemaPathOf(finding.facts, after);
      if (found) left.set(`${found.library}:${found.path}`, (left.get(`${found.library}:${found.path}`) ?? 0) + 1);
    }
    for (const finding of detect(path, before)) {
      const found = schemaPathOf(finding.facts, before);
      if (!found) continue;
      const key = `${found.library}:${found.path}`;
      const remaining = left.get(key) ?? 0;
      if (remaining > 0) {
        left.set(key, remaining - 1);
        continue;
      }
      if (paths.get(found.library) !== 'sync') paths.set(found.library, found.path);
    }
  }
  return paths;
}
