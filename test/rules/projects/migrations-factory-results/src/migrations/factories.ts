import Database from 'better-sqlite3';
import { FileMigrationProvider, Kysely, Migrator, SqliteDialect } from 'kysely';
import { Sequelize } from 'sequelize';
import { SequelizeStorage, Umzug } from 'umzug';
import { promises as fs } from 'node:fs';
import path from 'node:path';

const provider = new FileMigrationProvider({ fs, path, migrationFolder: path.resolve('migrations') });

/** A Kysely migrator on whatever database the caller hands over. */
export function migratorFor(db: Kysely<unknown>) {
  return new Migrator({ db, provider });
}

/** A Kysely migrator on this host's own price-cache file. */
export function priceCacheMigrator(file: string) {
  const cache = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new Database(file) }) });
  const migrator = new Migrator({ db: cache, provider });
  return migrator;
}

/** An Umzug over the caller's Sequelize. */
export const stepsFor = (sequelize: Sequelize) =>
  new Umzug({ migrations: { glob: 'steps/*.js' }, context: sequelize.getQueryInterface(), storage: new SequelizeStorage({ sequelize }), logger: undefined });

/** Tools whose methods write the schema. */
export function ledgerTools(sequelize: Sequelize) {
  return {
    async sync() {
      await sequelize.sync({ alter: true });
    },
    async migrate() {
      await stepsFor(sequelize).up();
    },
  };
}

/** The same tools over an in-memory database of this process. */
export function scratchTools() {
  const scratch = new Sequelize('sqlite::memory:');
  return {
    async sync() {
      await scratch.sync();
    },
  };
}

/** Tools that move a settings file's keys: no database. */
export function settingsTools(file: string) {
  return {
    async migrate() {
      const raw = await fs.readFile(file, 'utf8');
      await fs.writeFile(file, raw.replaceAll('legacyKey', 'key'));
    },
  };
}
