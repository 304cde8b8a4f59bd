// Folder and file conventions that say what a file is without reading it.
//
// Test code, by the conventions of Jest, Vitest, Mocha, Playwright and Nest's e2e setup: test
// files, their folders, the global set-up a runner starts once, and the files only the test
// tooling's package.json scripts run (`"cypress:prepare": "ts-node scripts/prepare-test-db.ts"`). It never runs in a replica of
// the service, so its schema writes (a throw-away database migrated in a `globalSetup`, a
// `synchronize: true` test module) do no harm at any number of replicas.
//
// Migration files: any folder named for migrations (`migrations/`, `db-migrations/`,
// `code-migrations/`, `dbMigrations/`), beside the `migrationFiles` globs.

/** Folders that hold only tests, mocks and their fixtures. */
const TEST_FOLDERS: ReadonlySet<string> = new Set([
  '__tests__',
  '__test__',
  '__mocks__',
  '__fixtures__',
  'test',
  'tests',
  'e2e',
  'spec',
  'specs',
]);
/**
 * Folders of test support, by the names projects give them: `testing/` (a package's test
 * helpers, exported as `pkg/testing`: a throw-away database reset and migrated for a test run),
 * `test-utils/`, `test-helpers/`, `testUtils/`, `test_support/`, `tests-helpers/`, and modules so
 * named (`src/test-utils.ts`). No server code lives in them by convention.
 */
const TEST_SUPPORT_FOLDER = /^(?:testing|tests?[-_]?(?:utils?|utilities|helpers?|support|kit|suites?))$/i;
/** Folders of one kind of tests: `int-tests/`, `integration-tests/`, `e2e_tests/`, `unit-tests/`. */
const KIND_OF_TESTS_FOLDER = /^(?:int|integration|e2e|unit|functional|api)[-_]tests?$/i;
/**
 * A playground beside the services, named for what it tries out: `nats-test/`, `kafka-tests/`,
 * `load-test/`, `test-client/` — scripts a developer runs by hand against a local server, in no
 * replica. Only outside a source tree: a folder so named under `src/`, `lib/` or `app/`
 * (`src/features/ab-test/`) is the service's own code.
 */
const PLAYGROUND_TEST_FOLDER = /^(?:[a-z0-9]+[-_]tests?|tests?[-_][a-z0-9]+)$/i;
/**
 * Examples beside a library or a service (`examples/`, `example/src/`, `demo/`, `samples/`): code
 * that shows how to call it, run by hand, deployed by nobody. Only outside a source tree, like a
 * playground (`src/samples/` may be the service's own sample data).
 */
const EXAMPLE_FOLDER = /^(?:examples?|demos?|samples?)$/i;
const SOURCE_FOLDERS: ReadonlySet<string> = new Set(['src', 'lib', 'app', 'source', 'server']);

/** Whether a folder of `segments` is a test playground or an example with no source folder above it. */
function inPlayground(segments: readonly string[]): boolean {
  for (const segment of segments) {
    if (SOURCE_FOLDERS.has(segment)) return false;
    if (PLAYGROUND_TEST_FOLDER.test(segment) || EXAMPLE_FOLDER.test(segment)) return true;
  }
  return false;
}
/** `orders.test.ts`, `orders.spec.ts`, `app.e2e-spec.ts`, `orders.int.test.ts`, `orders.integration.ts` … */
const TEST_FILE = /\.(?:test|spec|e2e-spec|e2e|integration|int-spec)\.[cm]?[jt]sx?$/i;
/** A test runner's set-up module: `globalSetup.ts`, `global-setup.js`, `setupTests.ts`, `jest.setup.ts`, `vitest.setup.ts`, `test-setup.ts`. */
const SETUP_FILE =
  /^(?:global[-_.]?(?:setup|teardown)|setup[-_.]?tests?|(?:jest|vitest|mocha)[-_.]setup|tests?[-_.]?setup)(?:[-_.][\w-]*)?\.[cm]?[jt]sx?$/i;

/**
 * Words that, as a part of a package.json script's name (`test`, `test:e2e`, `pretest`,
 * `cypress:prepare`, `e2e-setup`, `playwright:db`), make it a script of the test tooling: a file
 * only such scripts run (a test database's preparation) is test code too.
 */
const TEST_SCRIPT_WORDS: ReadonlySet<string> = new Set('test tests pretest posttest e2e cypress playwright jest vitest mocha'.split(' '));

/** Whether a package.json script's name, split at `:`, `-`, `_`, `.`, has a part among `words`. */
const scriptNameHas = (name: string, words: ReadonlySet<string>): boolean =>
  name
    .toLowerCase()
    .split(/[:._-]/)
    .some((part) => words.has(part));

/** Whether a package.json script's name is one of the test tooling's (`TEST_SCRIPT_WORDS`). */
export const isTestScriptName = (name: string): boolean => scriptNameHas(name, TEST_SCRIPT_WORDS);

/**
 * Words that, as a part of a package.json script's name (`db:truncate`, `db:reset`, `db:seed`,
 * `seed`, `db:clean`, `db:purge`, `backfill:emails`, `db:populate`), make it an operator's one-off database chore: a file only
 * such scripts run is typed by someone, once, not started by every replica.
 */
const ONE_OFF_SCRIPT_WORDS: ReadonlySet<string> = new Set(
  'seed truncate reset clean clear wipe purge drop backfill populate repopulate'.split(' '),
);

/** Whether a package.json script's name is a one-off database chore's (`ONE_OFF_SCRIPT_WORDS`). */
export const isOneOffScriptName = (name: string): boolean => scriptNameHas(name, ONE_OFF_SCRIPT_WORDS);

/** Whether `path` (relative to the project, `/`-separated) is test code. */
export function isTestFilePath(path: string): boolean {
  const segments = path.split('/');
  const name = segments.pop() ?? '';
  return isTestFileName(name) || isInTestFolder(segments);
}

/** Whether a file's base name makes it test code (`isTestFilePath` by the name alone). */
export function isTestFileName(name: string): boolean {
  const stem = name.replace(/\.[cm]?[jt]sx?$/, '');
  return (
    TEST_FILE.test(name) ||
    SETUP_FILE.test(name) ||
    TEST_SUPPORT_FOLDER.test(stem) ||
    // A module's test support beside it: `database.test-utils.ts`, `tagging.int.test-suites.ts`.
    TEST_SUPPORT_FOLDER.test(stem.slice(stem.lastIndexOf('.') + 1))
  );
}

/**
 * Whether a file's base name is a desktop's or editor's duplicate of another module (`invoices.controller
 * copy.js`, `service copy 2.ts`, `index (1).js`): a leftover no module imports — no import names a
 * path with such a space — so it runs in no replica.
 */
export function isDuplicateCopyFileName(name: string): boolean {
  return / (?:copy(?: \d+)?|\(\d+\))$/i.test(name.replace(/\.[cm]?[jt]sx?$/, ''));
}

/** Whether the folders of a path (relative to the project, outermost first) make every file in them test code (`isTestFilePath` by the folders alone). */
export function isInTestFolder(segments: readonly string[]): boolean {
  return (
    segments.some((segment) => TEST_FOLDERS.has(segment) || TEST_SUPPORT_FOLDER.test(segment) || KIND_OF_TESTS_FOLDER.test(segment)) ||
    inPlayground(segments)
  );
}

/**
 * Whether a file's name marks it for development only, as `.test.` marks a test: `seed.dev.ts`,
 * `server.development.js` — started by hand or by a dev script, in no replica.
 */
export function isDevelopmentFilePath(path: string): boolean {
  const parts = (path.slice(path.lastIndexOf('/') + 1) || path).split('.');
  return parts.slice(1, -1).some((part) => /^(?:dev|development)$/i.test(part));
}

/** Whether a folder called `name` holds migrations: `migrations`, `db-migrations`, `code-migrations`, `dbMigrations`. */
export const isMigrationFolderName = (name: string): boolean => /migration/i.test(name);

/**
 * Roles a framework names in a file's name (`migration.service.ts`, `migrations.module.ts`): the
 * application's code about migrations — the runner, its module — not a migration file, even in a
 * folder named for migrations.
 */
const FRAMEWORK_ROLE_SUFFIXES: ReadonlySet<string> = new Set(['service', 'module', 'controller', 'provider', 'resolver', 'gateway']);

/** Whether a file's name carries a framework role (`migration.service.ts`; not `1700-add-users.ts`). */
export function isFrameworkRoleFile(path: string): boolean {
  const parts = (path.slice(path.lastIndexOf('/') + 1) || path).split('.');
  return parts.slice(1, -1).some((part) => FRAMEWORK_ROLE_SUFFIXES.has(part.toLowerCase()));
}

/** Whether `path` (relative to the project, `/`-separated) lies in a folder named for migrations. */
export function isInMigrationFolder(path: string): boolean {
  const segments = path.split('/');
  segments.pop();
  return segments.some(isMigrationFolderName);
}

// Operator commands: a command-line tool someone runs by hand (an `install` wizard, an
// `ops-cli migrate` or `upgrade` command) is not the server every replica starts, so its schema
// writes run once, when the operator says. Told by what the file or its package is built from:
// - the file imports a command-line framework or an interactive prompt library, or
// - its package (the nearest package.json) is an internal command-line package: `private` (a
//   package of the service's own repository, not a published library that also ships a command),
//   it declares a `bin` or depends on a command-line framework, and it has no script that starts
//   a server (`start`, `start:prod`, `serve`).
// Either way a file that itself starts a server (`http.createServer`, `app.listen(…)`,
// `NestFactory.create`) is the server, whatever else it imports: a start-up file that also parses
// its arguments with commander is still reported.

/** Command-line frameworks (argument parsers with commands) and interactive prompt libraries. */
export const CLI_MODULES: ReadonlySet<string> = new Set([
  'commander',
  '@commander-js/extra-typings',
  'yargs',
  'yargs/yargs',
  'yargs/helpers',
  'cac',
  'meow',
  'sade',
  'citty',
  'clipanion',
  '@oclif/core',
  '@oclif/command',
  'nest-commander',
  'enquirer',
  'inquirer',
  '@inquirer/prompts',
  'prompts',
  '@clack/prompts',
]);

/**
 * Argument parsers without commands (`nopt`, `minimist`, `node:util`'s `parseArgs`): a script that
 * reads its own flags with one is typed by someone. Not evidence for a package (services depend
 * on them indirectly); read only of a file named like a migrate entrypoint, beside `CLI_MODULES`.
 */
export const ARGUMENT_PARSER_MODULES: ReadonlySet<string> = new Set([
  'nopt',
  'minimist',
  'mri',
  'arg',
  'yargs-parser',
  'command-line-args',
  'getopts',
]);

/**
 * Node's own modules that reach nothing but files and the process (no socket, no child process,
 * no loader): a script that imports only these, with or without `node:`, cannot reach a database.
 */
export const FILE_ONLY_NODE_MODULES: ReadonlySet<string> = new Set(
  [
    'fs',
    'fs/promises',
    'path',
    'path/posix',
    'path/win32',
    'url',
    'os',
    'util',
    'crypto',
    'assert',
    'assert/strict',
    'stream',
    'stream/promises',
    'zlib',
    'events',
    'buffer',
    'string_decoder',
    'timers',
    'timers/promises',
    'process',
    'readline',
  ].flatMap((name) => [name, `node:${name}`]),
);

/**
 * Folders that hold a package's commands (`src/bin/migrate.ts`, `src/commands/db/migrate.ts`,
 * `src/cli/…`): in a package that declares a `bin`, the commands its program loads.
 */
export const COMMAND_FOLDERS: ReadonlySet<string> = new Set(['bin', 'cli', 'commands']);

/**
 * What a server's start file does in its own text: listen on a port, or start the server through a
 * class or function named for one, the project's own or a framework's (`await MergedServer.create(port)`,
 * `new FlexServer(port)`, `new ApolloServer(…)`, `await startServer()`), which listens elsewhere.
 */
export const SERVER_START =
  /\.listen\s*\(|\bcreateServer\s*\(|\bNestFactory\s*\.\s*create|\bnew\s+(?:[A-Z]\w*)?Server\s*\(|\b[A-Z]\w*Server\s*\.\s*(?:create|start)\w*\s*\(|\bstart\w*Server\s*\(/;

/**
 * What a worker that runs again and again does in its own text: a timer, an endless loop, a cron
 * schedule or a call of a project's cron runner (`runCronJob('digest', run)`). A command file that
 * does one of these is a process that stays up or comes back on a schedule, not a one-off an
 * operator runs by hand.
 */
export const RUNS_AGAIN =
  /\bsetInterval\s*\(|\bwhile\s*\(\s*(?:true|1)\s*\)|\bfor\s*\(\s*;\s*;\s*\)|\bnew\s+CronJob\b|\w*[cC]ron\w*\s*\(|\bschedule(?:Job)?\s*\(/;

/** Folders whose files a scheduler starts (`cron/hourly/send-digest.ts`, `jobs/daily/…`): each file a scheduled job. */
export const SCHEDULE_FOLDERS: ReadonlySet<string> = new Set([
  'cron',
  'crons',
  'cronjobs',
  'jobs',
  'scheduled',
  'schedules',
  'hourly',
  'daily',
  'weekly',
  'monthly',
]);

/** A package.json script that starts a long-running server: `start`, `start:prod`, `serve`. */
const SERVER_SCRIPT_NAME = /^(?:start|serve)(?::|$)/;

/** Whether a parsed package.json describes a command-line package (see above). */
export function isCommandLinePackage(manifest: { private?: unknown; bin?: unknown; scripts?: unknown; dependencies?: unknown }): boolean {
  if (manifest.private !== true) return false;
  const scripts = manifest.scripts && typeof manifest.scripts === 'object' ? Object.keys(manifest.scripts) : [];
  if (scripts.some((name) => SERVER_SCRIPT_NAME.test(name))) return false;
  const dependencies = manifest.dependencies && typeof manifest.dependencies === 'object' ? Object.keys(manifest.dependencies) : [];
  return (manifest.bin !== undefined && manifest.bin !== null && manifest.bin !== '') || dependencies.some((name) => CLI_MODULES.has(name));
}

/** Folders of a repository's scripts: `scripts/`, `script/` beside the sources (a simulator, a load generator, an operator's watch). */
const SCRIPTS_FOLDER = /^scripts?$/i;
/** Words of a script's file name that say it is a process meant to keep running (`market-cron.ts`, `scheduler.js`, `worker.ts`). */
const LONG_RUNNING_SCRIPT_WORDS: ReadonlySet<string> = new Set('cron crons scheduler schedulers job jobs worker workers daemon'.split(' '));

/**
 * More words of a script's name that say a standing process (`scripts/run-dispatcher.js`: the process handing
 * out what is due, deployed beside the service); read only for scripts, not for `namesLongRunningProcess`.
 */
const STANDING_SCRIPT_WORDS: ReadonlySet<string> = new Set(['dispatcher', 'dispatchers']);

/** The words of a path's folders and file name (`src/worker/settle-fees.ts` → src, worker, settle, fees, ts), lower-cased. */
const pathWords = (segments: readonly string[]): string[] =>
  segments.flatMap((part) => part.split(/[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])/)).map((word) => word.toLowerCase());

/** Whether a path's folders or file name name a process meant to keep running (`src/worker/…`, `billing-cron.ts`, `jobs/`). */
export const namesLongRunningProcess = (path: string): boolean => pathWords(path.split('/')).some((w) => LONG_RUNNING_SCRIPT_WORDS.has(w));

/**
 * Whether `path` (relative to the project, `/`-separated) is a script someone runs by hand: in a
 * `scripts/` folder with no source folder above it (`src/scripts/` is the service's own code), its
 * name — and the names of the folders between — not one of a long-running process
 * (`scripts/digest-cron.ts`, `scripts/workers/utils/poll.js` may be deployed and stay judged).
 */
export function isHandRunScriptPath(path: string): boolean {
  const segments = path.split('/');
  const keepsRunning = (word: string) => LONG_RUNNING_SCRIPT_WORDS.has(word) || STANDING_SCRIPT_WORDS.has(word);
  for (const [at, segment] of segments.slice(0, -1).entries()) {
    if (SOURCE_FOLDERS.has(segment)) return false;
    if (SCRIPTS_FOLDER.test(segment)) return !pathWords(segments.slice(at + 1)).some(keepsRunning);
  }
  return false;
}

/**
 * A file named for one job (`expiryJob.ts`, `cleanup-job.ts`, `expiry.job.ts`): its base name's
 * last word is `job`, after a word that says which. `job.ts` alone is as often a queue's model of a job.
 */
export function isOneJobFileName(stem: string): boolean {
  const words = stem.split(/[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])/).filter(Boolean);
  return words.length > 1 && words.at(-1)!.toLowerCase() === 'job';
}

/**
 * Base names of project modules that start a process's work when loaded (`import './server.js'`, `require('./cron')`): a file
 * that loads one for its effects starts the server or its schedules, whatever else it runs.
 */
export const STARTING_MODULE_NAMES = /^(?:server|app|cron|crons|jobs|worker|workers|scheduler|bot)$/;
