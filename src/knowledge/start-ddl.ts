// What tells hand-written DDL that a service sends to its shared database as it starts: the
// drivers of a database server (every replica connects to the same one), the names of the
// functions a service's start calls to lay out its tables, and the DDL that lays them out.
import { LIBRARY_READS_WRITES } from './orm-reads-writes.js';

/**
 * Drivers of a database server: a module that imports one talks to the database every replica shares — the
 * raw SQL clients the read-then-write knowledge names, and the other server drivers.
 */
export const SERVER_DRIVER_MODULES: readonly string[] = [
  ...LIBRARY_READS_WRITES.sql.modules,
  'pg-pool',
  'pg-promise',
  'mysql',
  'mariadb',
  'mssql',
  'tedious',
  '@clickhouse/client',
];

/** A class or factory named for a database server (`new PostgresPool()`, `createMysqlPool()`): what it builds talks to that server. */
export const SERVER_ENGINE_NAME = /postgres|^pg[A-Z]|Pg(?:Client|Pool)|mysql|maria|clickhouse|mssql|cockroach/i;

/**
 * The name of a function a start calls to lay out the database (`initDb`, `initializeStore`,
 * `setupTables`, `ensureSchema`, `bootstrapDatabase`): the verb first, then the rest of the name.
 */
export const INITIALISER_NAME = /^(?:init|initiali[sz]e|setup|setUp|bootstrap|ensure)(?:[A-Z_]|$)/;

/**
 * DDL that lays out tables, columns, indexes and views (`CREATE TABLE IF NOT EXISTS …`, `ALTER
 * TABLE … ADD COLUMN`, `CREATE MATERIALIZED VIEW …`): not a `DROP`, which a reset sends.
 */
export const LAYOUT_DDL = /\b(?:create|alter)\s+(?:or\s+replace\s+)?(?:unique\s+)?(?:materialized\s+)?(?:table|index|view)\b/i;

/**
 * The first, cheap look at a file's text for such DDL: the words of the table DDL as written, and
 * of index and view DDL in capitals (a lower-case `create index` with no table word is not looked for).
 */
export const LAYOUT_DDL_WORDS: readonly string[] = ['TABLE', 'table', 'INDEX', 'VIEW'];

/** `REFRESH MATERIALIZED VIEW [CONCURRENTLY] name`: the view's rows rebuilt in the database, a write however it is sent. */
export const REFRESH_VIEW_SQL = /\brefresh\s+materialized\s+view\b/i;
