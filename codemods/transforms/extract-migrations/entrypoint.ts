// The migrate entrypoint `extract-migrations` scaffolds: `runMigrations` with the ready-made
// migrator for the library the service uses (docs/migrations.md, "Per migrator"), in the
// project's language and module system. Every pod runs it before the server.
import { MIGRATOR_BY_MODULE } from '../../../src/knowledge/migrators.js';

export type ScaffoldMigrator = (typeof MIGRATOR_BY_MODULE)[number]['migrator'] | 'own';

export function migratorFor(modules: Iterable<string>): ScaffoldMigrator {
  const list = [...modules];
  for (const { test, migrator } of MIGRATOR_BY_MODULE) if (list.some((m) => test.test(m))) return migrator;
  return 'own';
}

interface MigratorCode {
  /** Names imported from replica-guard besides runMigrations. */
  names: string[];
  /** Other imports: [default-or-named clause, module]. */
  imports: Array<[string, string]>;
  /** The `migrate:` value. */
  migrate: string;
}

const CODE: Record<ScaffoldMigrator, MigratorCode> = {
  'node-pg-migrate': { names: ['nodePgMigrateMigrator'], imports: [], migrate: "nodePgMigrateMigrator({ dir: 'migrations' })" },
  umzug: {
    names: ['umzugMigrator'],
    imports: [['{ Umzug }', 'umzug']],
    migrate: "umzugMigrator((client) => new Umzug({ migrations: { glob: 'migrations/*.js' }, context: client, logger: console }))",
  },
  prisma: { names: ['prismaMigrator'], imports: [], migrate: "prismaMigrator({ schema: 'prisma/schema.prisma' })" },
  drizzle: { names: ['drizzleMigrator'], imports: [], migrate: "drizzleMigrator({ migrationsFolder: './drizzle' })" },
  kysely: {
    names: ['kyselyMigrator'],
    imports: [
      ['{ promises as fs }', 'node:fs'],
      ['path', 'node:path'],
      ['{ FileMigrationProvider }', 'kysely'],
    ],
    migrate: "kyselyMigrator({ provider: new FileMigrationProvider({ fs, path, migrationFolder: path.resolve('migrations') }) })",
  },
  typeorm: {
    names: ['typeormMigrator'],
    imports: [['{ DataSource }', 'typeorm']],
    migrate:
      "typeormMigrator({\n    dataSource: (url) => new DataSource({ type: 'postgres', url, migrations: ['dist/migrations/*.js'], synchronize: false, migrationsRun: false }),\n  })",
  },
  knex: { names: ['knexMigrator'], imports: [], migrate: "knexMigrator({ migrations: { directory: 'migrations' } })" },
  // Both take their own advisory lock as well; runMigrations' lock is the one every pod waits on.
  'postgres-migrations': {
    names: [],
    imports: [['{ migrate }', 'postgres-migrations']],
    migrate: "(client) => migrate({ client }, 'migrations')",
  },
  // graphile-migrate connects by itself, to the same direct URL; its other settings keep their defaults (./migrations).
  'graphile-migrate': {
    names: [],
    imports: [['{ migrate }', 'graphile-migrate']],
    migrate: 'async () => {\n    await migrate({ connectionString: process.env.POSTGRES_MIGRATE_URL });\n  }',
  },
  own: {
    names: [],
    imports: [],
    migrate: 'async (client) => {\n    // Apply your migrations on `client`: the pinned, locked connection to POSTGRES_MIGRATE_URL.\n  }',
  },
};

export interface EntrypointOptions {
  migrator: ScaffoldMigrator;
  lockKey: string;
  /**
   * `esm`: imports and top-level `await` (a `"type": "module"` package); `ts-cjs`: TypeScript
   * compiled to CommonJS — imports, but no top-level `await` (TS1378), so the run ends in a
   * rejection handler; `cjs`: `require` and a rejection handler.
   */
  module: 'esm' | 'ts-cjs' | 'cjs';
}

const HEADER = [
  '// The migrate entrypoint: every pod runs it before the server (`node dist/cmd/migrate.js && exec node dist/server.js`).',
  '// It connects with POSTGRES_MIGRATE_URL (directly to PostgreSQL, never PgBouncer), holds the',
  "// service's advisory lock for the whole run and exits 1 on failure. Scaffolded by replica-codemod.",
];

/** The entrypoint's source text. */
export function entrypointText(options: EntrypointOptions): string {
  const code = CODE[options.migrator];
  const names = ['runMigrations', ...code.names].join(', ');
  const quote = (s: string): string => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  const call = `runMigrations({\n  lockKey: ${quote(options.lockKey)},\n  migrate: ${code.migrate},\n})`;
  const handled = `${call}.catch((error) => {\n  console.error(error);\n  process.exit(1);\n});`;
  if (options.module !== 'cjs') {
    const imports = [
      ...code.imports.map(([clause, module]) => `import ${clause} from ${quote(module)};`),
      `import { ${names} } from 'replica-guard';`,
    ];
    return [...HEADER, ...imports, '', options.module === 'esm' ? `await ${call};` : handled, ''].join('\n');
  }
  const requires = [
    ...code.imports.map(([clause, module]) => `const ${clause.replace(' as ', ': ')} = require(${quote(module)});`),
    `const { ${names} } = require('replica-guard');`,
  ];
  return [...HEADER, "'use strict';", ...requires, '', handled, ''].join('\n');
}

/** The `migrate` script for package.json. */
export function migrateScript(entrypoint: string, typescript: boolean): string {
  return typescript ? `node ${entrypoint.replace(/^src\//, 'dist/').replace(/\.ts$/, '.js')}` : `node ${entrypoint}`;
}
