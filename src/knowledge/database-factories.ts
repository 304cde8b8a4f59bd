// Functions that hand out a database connection: `createSqlClient`, `getPool`, `connectDb`,
// `makeDatabase`. A job handed one (`refreshTotals(createSqlClient)`) gets the database as surely as
// one handed the handle itself. Pure functions over names.
import { namesDatabaseHandle } from './migrators.js';

/** A factory verb, then a name that says database handle (`createSqlClient` → `SqlClient`). */
const FACTORY = /^(?:create|make|get|new|open|build|connect)(?=[A-Z_])_?(.+)$/;

/** Whether `name` is a function giving a database connection by its name. */
export function namesDatabaseFactory(name: string): boolean {
  const handle = FACTORY.exec(name)?.[1];
  return handle !== undefined && namesDatabaseHandle(handle);
}
