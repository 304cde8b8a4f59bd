// What says that a piece of code talks to a database: a handle or session named like one
// (`db`, `pool`, `conn`, `trx`, `queryRunner`), or a binding imported from a module named for one
// (a driver, an ORM, the project's own `db` / `datasource` module). Read by `no-in-app-migrations`
// to tell a runner named for migrations that migrates something else (a settings file) from one
// that runs schema migrations. Plain data and pure functions.
import { namesDatabaseHandle } from './migrators.js';
import { plainName } from './names.js';

/** A connection, session or transaction beside the handle names: `conn.query`, `trx`, `queryRunner`, `entityManager`. */
const DATABASE_SESSION_NAME =
  /^(?:conn|connection|client|trx|tx|transaction|queryrunner|manager|entitymanager|em|repo|repository|session)$/;

/**
 * Names of objects a project's data access goes through (`this.orders` of an `OrderRepository`,
 * `userRepository`, `commentStore`, a `db` object handed in, `statsService`): a loader-named method
 * of one reads a row, an update-named one writes it back.
 */
export const DATA_ACCESS_OBJECT_NAME = /(?:^db|database|repo|repository|store|storage|dao|model|service|gateway)$/i;

/** Whether a name in code names a database handle, connection or session. */
export function namesDatabaseAccess(name: string): boolean {
  return namesDatabaseHandle(name) || DATABASE_SESSION_NAME.test(plainName(name));
}

/**
 * A module specifier that names a database: a driver or ORM (`pg`, `mysql2`, `better-sqlite3`,
 * `@prisma/client`, `drizzle-orm/…`), or a project module named for one (`./db`,
 * `@app/database`, `../lib/postgres/connection`, `@server/datasource`).
 */
export const DATABASE_MODULE_SPECIFIER =
  /(?:^|[/@._-])(?:pg|postgres(?:ql)?|mysql2?|mariadb|sqlite3?|mongodb|mongoose|prisma|knex|sequelize|typeorm|drizzle-orm|kysely|mikro-orm|libsql|db|database|datasource|data-source|orm)(?:$|[/._-])/i;

/**
 * MongoDB's driver and ODMs: modules that speak MongoDB's wire protocol (MongoDB itself, or a
 * server that speaks it, FerretDB, DocumentDB), where no PostgreSQL advisory lock or migrate URL applies.
 */
export const MONGODB_MODULES: readonly string[] = ['mongodb', 'mongodb-legacy', 'mongoose', '@nestjs/mongoose'];

/** A project's own function that sends the SQL it is handed to its pool (`import { query } from './db'`, then `query(sql, params)`). */
export const SQL_FUNCTION_NAMES: ReadonlySet<string> = new Set(['query', 'execute']);
