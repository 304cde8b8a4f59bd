// What replica-guard knows about schema writes: which module exports which migrator API, which
// options turn on migrations at start-up, which commands apply migrations, which environment
// variables are flags for an in-app migration path or the wrong URL for the migrate entrypoint.
// Plain data and pure functions, read by `no-in-app-migrations`, `migrate-entrypoint` and the
// `extract-migrations` codemod.

import { plainName } from './names.js';

export type MigratorLibrary =
  | 'typeorm'
  | 'sequelize'
  | 'knex'
  | 'drizzle'
  | 'umzug'
  | 'mikro-orm'
  | 'kysely'
  | 'node-pg-migrate'
  | 'prisma'
  | 'graphile-migrate'
  | 'graphile-worker'
  | 'postgres-migrations'
  | 'slonik-migrator'
  | 'schema-create'
  | 'knex-migrate'
  | 'migrate-mongo'
  | 'db-migrate'
  | 'mongoose';

/** A call or construction, imported from a module, that takes an options object with schema-write options. */
export interface SchemaOptionsApi {
  library: MigratorLibrary;
  modules: readonly string[];
  /** Export path (`['TypeOrmModule', 'forRootAsync']`). */
  path: readonly string[];
  kind: 'call' | 'construct';
  /** A property of the options whose function returns the real options (`useFactory`). */
  factory?: string;
  /** Human name for messages. */
  api: string;
}

export const SCHEMA_OPTIONS_APIS: readonly SchemaOptionsApi[] = [
  { library: 'typeorm', modules: ['typeorm'], path: ['DataSource'], kind: 'construct', api: 'new DataSource()' },
  { library: 'typeorm', modules: ['typeorm'], path: ['createConnection'], kind: 'call', api: 'createConnection()' },
  { library: 'typeorm', modules: ['@nestjs/typeorm'], path: ['TypeOrmModule', 'forRoot'], kind: 'call', api: 'TypeOrmModule.forRoot()' },
  {
    library: 'typeorm',
    modules: ['@nestjs/typeorm'],
    path: ['TypeOrmModule', 'forRootAsync'],
    kind: 'call',
    factory: 'useFactory',
    api: 'TypeOrmModule.forRootAsync()',
  },
];

/** Options that make the app write schema when it starts: flagged unless set to literal `false`. */
export const SCHEMA_WRITE_OPTIONS: readonly string[] = ['synchronize', 'migrationsRun'];

/** An imported function that applies migrations when called. */
export interface SchemaWriteFunction {
  library: MigratorLibrary;
  /** Exact module names, or a pattern over the specifier (Drizzle has one migrator per driver). */
  modules: readonly string[] | RegExp;
  path: readonly string[];
  api: string;
  /** The commands that apply migrations, when the first argument names one (`knexMigrate('up')`; `'pending'` only lists). */
  commands?: readonly string[];
}

export const SCHEMA_WRITE_FUNCTIONS: readonly SchemaWriteFunction[] = [
  { library: 'drizzle', modules: /^drizzle-orm\/.+\/migrator$/, path: ['migrate'], api: 'Drizzle migrate()' },
  { library: 'node-pg-migrate', modules: ['node-pg-migrate'], path: ['runner'], api: 'node-pg-migrate runner()' },
  { library: 'node-pg-migrate', modules: ['node-pg-migrate'], path: ['default'], api: 'node-pg-migrate runner()' },
  { library: 'graphile-migrate', modules: ['graphile-migrate'], path: ['migrate'], api: 'graphile-migrate migrate()' },
  // and its fork with a schema option, the same `migrate(dbConfig, dir)` under the same advisory lock
  {
    library: 'postgres-migrations',
    modules: ['postgres-migrations', 'postgres-schema-migrations'],
    path: ['migrate'],
    api: 'postgres-migrations migrate()',
  },
  {
    library: 'knex-migrate',
    modules: ['knex-migrate'],
    // The module is the function: `require('knex-migrate')('up', …)`, `import knexMigrate from 'knex-migrate'`.
    path: [],
    api: 'knex-migrate',
    commands: ['up', 'down', 'rollback', 'redo'],
  },
  // MongoDB: `up(db, client)` applies the pending migrations of the shared database.
  { library: 'migrate-mongo', modules: ['migrate-mongo'], path: ['up'], api: 'migrate-mongo up()' },
  { library: 'migrate-mongo', modules: ['migrate-mongo'], path: ['down'], api: 'migrate-mongo down()' },
];

/** Whether a call of a catalogue function applies migrations: its first argument, when a string, is one of the entry's `commands`. */
export function appliesMigrations(fn: SchemaWriteFunction, firstArgument: unknown): boolean {
  return fn.commands === undefined || typeof firstArgument !== 'string' || fn.commands.includes(firstArgument);
}

/**
 * A method call that writes schema. `via` is what the receiver ends in: a property (`knex.migrate`)
 * or a call (`orm.getMigrator()`). Without `evidence` the shape is distinctive enough on its own;
 * with it, the file must import one of those modules (the receiver is often injected or built in
 * another file, so the import of the library is the evidence that it is this library).
 */
export interface SchemaWriteMethod {
  library: MigratorLibrary;
  methods: readonly string[];
  via?: { property: string } | { call: string } | { identifier: string };
  evidence?: readonly (string | RegExp)[];
  /**
   * Keys of an options object, the call's first argument, that tell the call by itself where the
   * file has no `evidence` (`conn.sync({ alter: true })` on a client another module builds and exports
   * under its own name): no other library's method of that name takes them.
   */
  optionKeys?: readonly string[];
  api: string;
}

const MIKRO_ORM = /^@mikro-orm\//;
/** Prisma Migrate's engine as a library: the package, and its `Migrate` class imported from the build (`@prisma/migrate/dist/Migrate`). */
export const PRISMA_MIGRATE_MODULES: readonly string[] = ['@prisma/migrate', '@prisma/migrate/dist/Migrate'];

/** Sequelize's modules: v6 (`sequelize`), v7 (`@sequelize/core`), and the decorators' and NestJS's wrappers. */
export const SEQUELIZE_MODULES: readonly string[] = ['sequelize', 'sequelize-typescript', '@sequelize/core', '@nestjs/sequelize'];

export const SCHEMA_WRITE_METHODS: readonly SchemaWriteMethod[] = [
  { library: 'knex', via: { property: 'migrate' }, methods: ['latest', 'up', 'down', 'rollback'], api: 'knex.migrate' },
  { library: 'typeorm', methods: ['runMigrations'], api: 'TypeORM runMigrations()' },
  {
    library: 'typeorm',
    methods: ['undoLastMigration'],
    evidence: ['typeorm', '@nestjs/typeorm'],
    api: 'TypeORM undoLastMigration()',
  },
  { library: 'typeorm', methods: ['synchronize'], evidence: ['typeorm', '@nestjs/typeorm'], api: 'TypeORM synchronize()' },
  {
    library: 'sequelize',
    methods: ['sync'],
    evidence: SEQUELIZE_MODULES,
    optionKeys: ['force', 'alter'],
    api: 'Sequelize sync()',
  },
  { library: 'umzug', methods: ['up', 'down'], evidence: ['umzug'], api: 'Umzug up()/down()' },
  { library: 'mikro-orm', via: { call: 'getMigrator' }, methods: ['up', 'down'], api: 'MikroORM getMigrator()' },
  { library: 'mikro-orm', via: { property: 'migrator' }, methods: ['up', 'down'], evidence: [MIKRO_ORM], api: 'MikroORM migrator' },
  {
    library: 'mikro-orm',
    via: { call: 'getSchemaGenerator' },
    methods: ['createSchema', 'updateSchema', 'refreshDatabase', 'dropSchema', 'ensureDatabase'],
    api: 'MikroORM getSchemaGenerator()',
  },
  {
    library: 'mikro-orm',
    via: { property: 'schema' },
    methods: ['createSchema', 'updateSchema', 'refreshDatabase'],
    evidence: [MIKRO_ORM],
    api: 'MikroORM schema',
  },
  {
    library: 'kysely',
    methods: ['migrateToLatest', 'migrateUp', 'migrateDown', 'migrateTo'],
    evidence: ['kysely'],
    api: 'Kysely Migrator',
  },
  { library: 'schema-create', via: { identifier: 'Schema' }, methods: ['Create'], api: 'Schema.Create()' },
  // Prisma Migrate's engine used as a library: `push` is `prisma db push` (the schema forced onto the database).
  { library: 'prisma', methods: ['push'], evidence: PRISMA_MIGRATE_MODULES, api: 'Prisma Migrate push()' },
  // db-migrate's programmatic API: `DBMigrate.getInstance(true, options).up()` applies the pending migrations.
  { library: 'db-migrate', via: { call: 'getInstance' }, methods: ['up', 'sync'], evidence: ['db-migrate'], api: 'db-migrate up()' },
  // A job queue's own schema (`graphile_worker`): `(await makeWorkerUtils(…)).migrate()` installs or updates it.
  { library: 'graphile-worker', methods: ['migrate'], evidence: ['graphile-worker'], api: 'graphile-worker migrate()' },
  // Mongoose: `Model.syncIndexes()` drops the indexes its schema no longer declares and builds the new ones on the shared collections.
  { library: 'mongoose', methods: ['syncIndexes'], evidence: ['mongoose', '@nestjs/mongoose'], api: 'Mongoose syncIndexes()' },
];

/**
 * Migrator classes whose construction is the run: the instance is handed to a runner (a
 * command-line helper such as `kysely-migration-cli`'s `run(db, migrator)`) that calls its methods
 * out of view.
 */
export const MIGRATOR_CLASSES: ReadonlyArray<{ library: MigratorLibrary; modules: readonly string[]; path: readonly string[] }> = [
  { library: 'kysely', modules: ['kysely'], path: ['Migrator'] },
  // Umzug underneath, with `pg_advisory_lock` around its runs; the instance is run by `runAsCLI()` or `up()`.
  { library: 'slonik-migrator', modules: ['@slonik/migrator'], path: ['SlonikMigrator'] },
];

/** Functions that run a command line, by module; the command text is read from their arguments. */
export const PROCESS_SPAWNERS: ReadonlyArray<{ modules: readonly string[]; names: readonly string[]; tagged?: boolean }> = [
  { modules: ['child_process', 'node:child_process'], names: ['exec', 'execSync', 'execFile', 'execFileSync', 'spawn', 'spawnSync'] },
  { modules: ['execa'], names: ['execa', 'execaSync', 'execaCommand', 'execaCommandSync', 'execaNode'] },
  { modules: ['execa', 'zx'], names: ['$'], tagged: true },
];

const PRISMA_SCHEMA_COMMAND = /\bprisma\s+(?:migrate\s+(?:deploy|dev|reset)|db\s+push)\b/;

/** The word a method entry's `via` names (`migrate`, `getMigrator`, `Schema`): the text of any call it matches holds it. */
export function viaWord(via: NonNullable<SchemaWriteMethod['via']>): string {
  return 'property' in via ? via.property : 'call' in via ? via.call : via.identifier;
}

/** The Prisma schema-writing command in a command line (`npx prisma migrate deploy`), or undefined. */
export function prismaSchemaCommand(commandLine: string): string | undefined {
  return PRISMA_SCHEMA_COMMAND.exec(commandLine.replace(/\s+/g, ' '))?.[0];
}

/**
 * Prisma's words in a spawned command whose program is not known in the file (a binary path from a
 * parameter or the environment, `spawn(bin, ['migrate', 'deploy'])`): the arguments begin with a
 * subcommand pair only Prisma's CLI has. `db push` is left out (Supabase's CLI says it too).
 */
const PRISMA_ONLY_SCHEMA_ARGUMENTS = /^migrate\s+(?:deploy|dev|reset)\b/;

/** The schema-writing arguments of a command line whose program is unknown, when they can only be Prisma's (`migrate deploy`). */
export function prismaOnlySchemaArguments(argumentsText: string): string | undefined {
  return PRISMA_ONLY_SCHEMA_ARGUMENTS.exec(argumentsText.replace(/\s+/g, ' ').trimStart())?.[0];
}

/**
 * Prisma's diff-then-apply: `prisma migrate diff … --script` prints the DDL that brings the
 * database to the schema file, and `prisma db execute --stdin` runs it. `db execute` alone runs any
 * SQL (a seed file); it is a schema write when the same function spawns the diff.
 */
export const PRISMA_DIFF_COMMAND = /\bprisma\s+migrate\s+diff\b/;
export const PRISMA_EXECUTE_COMMAND = /\bprisma\s+db\s+execute\b/;

/** A path segment or command word that names Prisma's CLI (`node_modules/.bin/prisma`, `prisma/build/index.js`, `npx prisma`). */
export function namesPrismaProgram(text: string): boolean {
  return text.split(/[\\/\s]+/).some((segment) => /^prisma(?:\.(?:cmd|exe|js))?$/.test(segment));
}

/** Environment flags that turned on in-app migrations; more come from the `migrationFlags` setting. */
export const DEFAULT_MIGRATION_FLAGS: readonly string[] = ['POSTGRES_RUN_MIGRATIONS'];

/**
 * Where a migrate entrypoint lives by default (settings `migrateEntrypoints` replaces these): the
 * names services give the one command that migrates — `cmd/migrate.ts`, `src/migrate.ts`,
 * `scripts/migrate.ts`, `bin/migrate.js`, `commands/db/migrate.ts`, `scripts/migrate-db.ts`,
 * `scripts/migrate/migrate-orders.ts` (one per service of a monorepo), `scripts/migrate/up.js`,
 * `run-migrations.ts`, `apply-migrations.ts`, `App/Migrate.ts`, `migrateLatest.ts`, the entry of a workspace package named for migrating
 * (`packages/migrator/src/main.ts`). (A file a package.json `migrate` script runs counts too, unless the
 * setting is given.)
 */
export const DEFAULT_MIGRATE_ENTRYPOINTS: readonly string[] = [
  '**/cmd/migrate.*',
  '**/cmd/migrate/**',
  // (also capitalised, as projects that name files like classes do: `App/Migrate.ts`)
  '**/{migrate,Migrate}.{js,cjs,mjs,ts,cts,mts}',
  '**/{migrate,db-migrate,db_migrate,migrate-db,migrate_db,run-migrations,run_migrations,apply-migrations,apply_migrations}.{js,cjs,mjs,ts,cts,mts}',
  '**/bin/migrate*',
  '**/scripts/**/migrate*.{js,cjs,mjs,ts,cts,mts}',
  // the run command of a scripts folder named for migrating (`scripts/migrate/up.js`, `scripts/migrateDb/index.ts`; its
  // seeds and `down` are not the run)
  '**/scripts/**/migrate*/{up,latest,run,index,main}.{js,cjs,mjs,ts,cts,mts}',
  // a script named for the run it makes (`migrateLatest.ts`, `migrate-up.js`)
  '**/migrate{Up,Latest,ToLatest,-up,-latest,_up,_latest}.{js,cjs,mjs,ts,cts,mts}',
  // the entry of a workspace package whose whole purpose is migrating (`packages/migrator/src/main.ts`)
  // (each glob under 256 brace alternatives, and each alternative with a literal no migration file's path holds)
  '**/{packages,apps,services,tools}/{migrator,db-migrator,schema-migrator}/{main,index}.{js,cjs,mjs,ts,cts,mts}',
  '**/{packages,apps,services,tools}/{migrator,migrations,db-migrator,db-migrations,schema-migrator}/src/{main,index}.{js,cjs,mjs,ts,cts,mts}',
];

/** Schema DDL in SQL text: `CREATE TABLE`, `ALTER TABLE`, `DROP INDEX`, `CREATE EXTENSION` … */
export const SCHEMA_DDL = /\b(?:create|alter|drop)\s+(?:unique\s+)?(?:table|index|schema|type|extension|view|sequence|column)\b/i;

/** A name less a tail saying how it fails (`migrateToLatestOrThrow` → `migrateToLatest`), or undefined without one. */
export const withoutFailureTail = (name: string): string | undefined => /^(.+?)Or(?:Throw|Fail|Exit|Die|Abort)$/.exec(name)?.[1];

/**
 * Whether a function called `name` runs the schema migrations by its name alone: a project's
 * own runner — `runMigrations()`, `migrateDb()`, `migrateDatabase()`, `migrateToLatest()`,
 * `applyMigrations()`, `runDbMigrations()`, `dbMigrate()`, and a run verb on migrations of a kind
 * or a place (`runTenantMigrations()`, `runMultitenantMigrations()`, `runMigrationsOnTenant()`,
 * `applyMigrationsForAllTenants()`). The bare verb `migrate` needs more evidence
 * (`migrateArgumentKeys`, `namesDatabaseHandle`): it also names data and state migrations.
 */
export function namesMigrationRunner(name: string): boolean {
  const plain = plainName(name);
  return (
    /^(?:run|apply|execute|perform)(?:all|pending)?(?:db|database|schema|sql|pg|postgres)?migrations?$/.test(plain) ||
    // the plural after a qualifier, or followed by where they run: one migration (`runMigrationFile`) stays out
    /^(?:run|apply|execute|perform)[a-z]+migrations$/.test(plain) ||
    /^(?:run|apply|execute|perform)(?:all|pending)?migrations(?:on|for|in|against)[a-z]+$/.test(plain) ||
    /^migrate(?:db|database|schema|tolatest|latest)$/.test(plain) ||
    /^(?:db|database|schema)migrate$/.test(plain)
  );
}

/** Words every name above holds (`migrate`, `runMigrations`): a file without them calls no runner by name. */
export const MIGRATION_RUNNER_WORDS: readonly string[] = ['migrat', 'Migrat'];

/**
 * Names that may run migrations but need a database or migrations in view: the bare verb and its
 * runner forms (`db.migrate()`, `migrate(db)`, `this.migrate({ migrations })`, `migrateUp(db)`,
 * `migrateAll(knex)`, `migrateWithPgConfig(config)`) and a run verb on migrations (`runMigrationFiles(knex)`,
 * `applyMigration(db, file)`), or a runner named for its role (`migrationWorker()`). A domain noun after the verb (`migrateMemberTier()`,
 * `migrateLegacySettings()`) or another verb before "Migration" (`planRegionMigration()`,
 * `renameMigrationFiles()`) names a data move or a business decision, not a schema runner.
 */
export function mayNameMigrationRun(name: string): boolean {
  const plain = plainName(name);
  return (
    /^migrate(?:up|down|all|next|pending)?$/.test(plain) ||
    // the bare verb and what it runs on: `migrateWithPgConfig(config)`, `migrateUsingClient(client)`
    /^migrate(?:with|using|via)[a-z]+$/.test(plain) ||
    // a runner named for its role: `migrationWorker()`, `migrationRunner()`, `migrationsJob()`
    /^migrations?(?:runner|worker|job|task)$/.test(plain) ||
    // the verb `do` before the run, and when or which way it goes: `doMigrationsDown()`, `doMigrationsOnBoot()`
    /^do(?:auto)?migrations?(?:up|down|all|pending|(?:before|on|at)(?:start|startup|boot|launch))?$/.test(plain) ||
    /^(?:run|apply|execute|perform)(?:all|pending|next|one|single|db|database|schema|sql)?migrations?(?:files?|up|down|all)?$/.test(plain)
  );
}

/**
 * Whether a receiver or argument called `name` is a database handle or client: `db`, `dbClient`,
 * `DatabaseClient`, `knex`, `dataSource`, `appDataSource`, `sequelize`, `pgPool`, `orm`.
 */
export function namesDatabaseHandle(name: string): boolean {
  const plain = plainName(name);
  return (
    /^(?:db|database|knex|sequelize|orm|datasource|pg|pool|postgres|sql|prisma|drizzle|kysely)/.test(plain) ||
    /(?:db|database|datasource|knex|sequelize|orm|pool)$/.test(plain)
  );
}

/**
 * Whether a receiver called `name` is a migrator (Umzug, a runner object, the project's runner
 * service, whatever it qualifies: `appMigrationsService`): `umzug.up()`, `migrator.up()`, `migrations.up()`,
 * `this.migrationService.run()`, `app.get(TenantMigrationService).run()`. One
 * migration (`migration.up(queryRunner)`, inside a runner's loop) is not.
 */
export function namesMigrator(name: string): boolean {
  return /^(?:umzug|(?:schema|db|database)?migrator|migrations|[a-z]*migrations?(?:runner|service|manager)(?:service)?)$/.test(
    plainName(name),
  );
}

/** Methods that apply migrations on a migrator told by its name (`migrator.up()`, `this.migrationService.run()`). */
export const MIGRATOR_RUN_METHODS: readonly string[] = [
  'up',
  'latest',
  'migrateToLatest',
  'migrateUp',
  'runMigrations',
  'run',
  'runAll',
  'runPending',
  'execute',
];

/**
 * Methods of a NestJS provider that the framework calls on every instance as the app starts
 * (`onModuleInit`, `onApplicationBootstrap`): a migration runner class that runs itself there
 * (`this.run({ action: 'up' })`) migrates on every replica's boot.
 */
export const START_HOOKS: readonly string[] = ['onModuleInit', 'onApplicationBootstrap'];

/** Keys of an options argument that make a `migrate(…)` call a schema migration: `{ migrations }`, `{ migrationsFolder }`. */
export const MIGRATE_ARGUMENT_KEYS: readonly string[] = [
  'migrations',
  'migrationsFolder',
  'migrationFolder',
  'migrationsDir',
  'migrationsTable',
];

/** Module specifiers whose imports are a migration runner (`import migrate from './utils/migrate.js'`, `@app/db/migrator`). */
export const MIGRATION_MODULE_SPECIFIER = /migrat/i;

/** Where migration files live by default (settings `migrationFiles` replaces these). */
export const DEFAULT_MIGRATION_FILES: readonly string[] = ['**/migrations/**', '**/migration/**'];

/** The migrator a service uses, told by a module it depends on or imports (first match wins). */
export const MIGRATOR_BY_MODULE: ReadonlyArray<{
  test: RegExp;
  migrator: 'node-pg-migrate' | 'umzug' | 'prisma' | 'drizzle' | 'kysely' | 'typeorm' | 'knex' | 'graphile-migrate' | 'postgres-migrations';
}> = [
  { test: /^node-pg-migrate$/, migrator: 'node-pg-migrate' },
  { test: /^graphile-migrate$/, migrator: 'graphile-migrate' },
  { test: /^postgres-(?:schema-)?migrations$/, migrator: 'postgres-migrations' },
  { test: /^umzug$/, migrator: 'umzug' },
  { test: /^(?:prisma|@prisma\/client)$/, migrator: 'prisma' },
  { test: /^drizzle-orm(?:\/|$)/, migrator: 'drizzle' },
  { test: /^kysely$/, migrator: 'kysely' },
  { test: /^(?:typeorm|@nestjs\/typeorm)$/, migrator: 'typeorm' },
  { test: /^knex$/, migrator: 'knex' },
];

/** Session advisory locks that make a migrate entrypoint's run exclusive. */
export const MIGRATE_LOCK_FUNCTIONS: readonly string[] = ['pg_advisory_lock', 'pg_try_advisory_lock'];

/** replica-guard's own runner: calling it satisfies "URL, lock and exit code". */
export const RUN_MIGRATIONS_API = { modules: ['replica-guard'], path: ['runMigrations'] } as const;

/** node-postgres: the pinned connection (`Client`) and the pool that is not one (`Pool`). */
export const PG_MODULES: readonly string[] = ['pg'];
