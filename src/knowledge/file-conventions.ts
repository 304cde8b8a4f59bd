// Folder and file conventions that say what a file is without reading it.
//
// Test code, by the conventions of Jest, Vitest, Mocha, Playwright and Nest's e2e setup: test
// files, their folders, and the global set-up a runner starts once. It never runs in a replica of
// the service, so its schema writes (a throw-away database migrated in a `globalSetup`, a
// `synchronize: true` test module) do no harm at any number of replicas.
//
// Migration files: any folder named for migrations (`migrations/`, `db-migrations/`,
// `code-migrations/`, `dbMigrations/`), beside the `migrationFiles` globs.

/** Folders that hold only tests, mocks and their fixtures. */
const TEST_FOLDERS: ReadonlySet<string> = new Set(['__tests__', '__test__', '__mocks__', 'test', 'tests', 'e2e', 'spec', 'specs']);
/** `orders.test.ts`, `orders.spec.ts`, `app.e2e-spec.ts`, `orders.int.test.ts`, `orders.integration.ts` … */
const TEST_FILE = /\.(?:test|spec|e2e-spec|e2e|integration|int-spec)\.[cm]?[jt]sx?$/i;
/** A test runner's set-up module: `globalSetup.ts`, `global-setup.js`, `setupTests.ts`, `jest.setup.ts`, `vitest.setup.ts`, `test-setup.ts`. */
const SETUP_FILE =
  /^(?:global[-_.]?(?:setup|teardown)|setup[-_.]?tests?|(?:jest|vitest|mocha)[-_.]setup|tests?[-_.]?setup)(?:[-_.][\w-]*)?\.[cm]?[jt]sx?$/i;

/** Whether `path` (relative to the project, `/`-separated) is test code. */
export function isTestFilePath(path: string): boolean {
  const segments = path.split('/');
  const name = segments.pop() ?? '';
  return TEST_FILE.test(name) || SETUP_FILE.test(name) || segments.some((segment) => TEST_FOLDERS.has(segment));
}

/** Whether a folder called `name` holds migrations: `migrations`, `db-migrations`, `code-migrations`, `dbMigrations`. */
export const isMigrationFolderName = (name: string): boolean => /migration/i.test(name);

/** Whether `path` (relative to the project, `/`-separated) lies in a folder named for migrations. */
export function isInMigrationFolder(path: string): boolean {
  const segments = path.split('/');
  segments.pop();
  return segments.some(isMigrationFolderName);
}
