// What a project's own migrator looks like from inside: a class that extends a migrator (`class
// DataMigrator extends Migrator`) and methods named for the migrator's verbs (`up`, `down`,
// `migrateToLatestOrThrow`); or a loop that reads each file of a migrations folder and sends its
// text to the database. Plain data and pure functions, read by the migrations family.
import { MIGRATOR_RUN_METHODS, mayNameMigrationRun, namesMigrationRunner, withoutFailureTail } from './migrators.js';

/** The name of a migrator class a project's class may extend (`Migrator`, `KyselyMigrator`, `FileMigrator`). */
export const MIGRATOR_CLASS_NAME = /Migrator$/;

/** A migrator's verbs that step back or undo, beside the ones that apply (`MIGRATOR_RUN_METHODS`). */
export const MIGRATOR_UNDO_METHODS: readonly string[] = ['down', 'rollback', 'revert', 'undo', 'migrateDown'];

/** Whether a method called `name` undoes migrations: `down`, `rollback`, `undoLastMigration`, `revertAll`, `migrateDown`. */
export function namesMigratorUndo(name: string): boolean {
  const plain = withoutFailureTail(name) ?? name;
  return MIGRATOR_UNDO_METHODS.includes(plain) || /^(?:undo|revert|rollback)(?:Last|All)?(?:Migrations?)?$/.test(plain);
}

/** Whether a method called `name` is one of a migrator's own verbs: `up`, `down`, `latest`, `runMigrations`, `migrateToOrThrow`. */
export function namesMigratorVerb(name: string): boolean {
  const plain = withoutFailureTail(name) ?? name;
  return (
    MIGRATOR_RUN_METHODS.includes(plain) ||
    MIGRATOR_UNDO_METHODS.includes(plain) ||
    /^migrate(?:[A-Z]\w*)?$/.test(plain) ||
    namesMigrationRunner(plain) ||
    mayNameMigrationRun(plain)
  );
}

/** A client's methods that send a SQL file by its path (postgres.js `sql.file(path)`): a hand-written runner's step. */
export const SQL_FILE_METHODS: ReadonlySet<string> = new Set(['file']);

/** Functions that read a file's text (`fs.readFileSync(path, 'utf8')`, `await fs.promises.readFile(path)`): a hand-written runner's SQL. */
export const FILE_READ_FUNCTIONS: ReadonlySet<string> = new Set(['readFileSync', 'readFile']);

/** A name or a path that speaks of migrations (`migrationFiles`, `path.join(__dirname, 'migrations')`). */
export const NAMES_MIGRATIONS = /migrat/i;
