// Where schema writes belong: the migrate entrypoint (globs from settings, or a file a package.json
// `migrate` script runs), migration files, commands that run once and exit — and test code, which
// no replica runs (by its path, or a file only the test tooling's package.json scripts run).
// Three rules ask about the same file, and `create` runs per file per rule, so the answer is
// kept for the file being linted; `matchesAny` compiles the globs once per settings and rejects
// most paths with a string search.
import type { DetectContext } from '../utils/create-rule.js';
import type { TSESTree } from '@typescript-eslint/utils';
import { matchesAny, mayMatchAny, readSettings, type ReplicaGuardSettings } from '../../analysis/settings.js';
import { DEFAULT_MIGRATE_ENTRYPOINTS, DEFAULT_MIGRATION_FILES } from '../../src/knowledge/migrators.js';
import { MIGRATION_AUTHORING_WORDS } from '../../src/knowledge/migration-scripts.js';
import {
  isInCommandFolder,
  isInCommandLinePackage,
  isRunByMigrateScript,
  isRunOnlyByAuthoringScripts,
  isRunOnlyByOneOffScripts,
  isRunOnlyByTestScripts,
  isStepBesideMigratorCommand,
} from './package-scripts.js';
import { moduleSpecifiers } from '../../analysis/imports/imported-references.js';
import { onForgetLastFile } from '../../analysis/source/last-file-cache.js';
import {
  CLI_MODULES,
  isOneOffScriptName,
  isTestScriptName,
  COMMAND_FOLDERS,
  RUNS_AGAIN,
  SCHEDULE_FOLDERS,
  SERVER_START,
  isFrameworkRoleFile,
  isInMigrationFolder,
  isTestFilePath,
} from '../../src/knowledge/file-conventions.js';
import { projectPath } from '../../analysis/source/project-path.js';
import { exportsMigrationStep, isMigrationFolderIndex } from './data-steps.js';
import { isOneShot, startedBody, startedCall, topLevelFunctionBodies } from './one-shot-run.js';
import { runsOnlyWhenStartedDirectly } from './started-directly.js';
import { runsOnlyWhenChoreSwitchedOn } from './chore-switches.js';
import { isBareSchemaScript } from './bare-scripts.js';
import { isUnnamedMigrationScript } from './unnamed-scripts.js';
import { buildsAppToRunOnce } from './standalone-apps.js';
import { buildsAppWithoutServing } from './unserved-apps.js';
import { onlyCallsImportedRunner } from './runner-call-scripts.js';
import { startsNothing } from '../../analysis/ast/only-declares.js';
import { modulesImporting } from '../../analysis/modules/importers.js';

type Context = DetectContext;

interface FileRole {
  sourceCode: object;
  /** The file's Program node: oxlint reuses one SourceCode object for every file, so it alone tells files apart. */
  ast: object;
  /** Each answer is worked out when first asked (`undefined` until then): most files are only asked one question. */
  migrateEntrypoint: boolean | undefined;
  /** A migration file, a `#!` script, or a command that runs and exits (`process.exit(…)` as a statement of the file). */
  exempt: boolean | undefined;
  /** A data-migration step a migrator runs once (`isMigrationStepFile`). */
  dataStep: boolean | undefined;
}

/** Whether a glob setting is left at its defaults (`defaults`, in order). */
const isLeftAt = (globs: readonly string[], defaults: readonly string[]): boolean =>
  globs.length === defaults.length && globs.every((glob, i) => glob === defaults[i]);

/** The `migrateEntrypoints` globs asked about last, and whether they are the defaults: every file asks, with the same array. */
let lastGlobs: readonly string[] | undefined;
let lastGlobsDefault = false;

/** Whether the `migrateEntrypoints` setting is left at its defaults (then package.json scripts count too). */
const isDefault = (globs: readonly string[]): boolean => {
  if (globs !== lastGlobs) {
    lastGlobsDefault = isLeftAt(globs, DEFAULT_MIGRATE_ENTRYPOINTS);
    lastGlobs = globs;
  }
  return lastGlobsDefault;
};

/** The words of a file's base name (`migrate-dev.ts` → `migrate`, `dev`). */
const baseNameWords = (filename: string): string[] =>
  (filename.slice(filename.replace(/\\/g, '/').lastIndexOf('/') + 1).split('.')[0] ?? '')
    .split(/[-_]|(?=[A-Z])/)
    .map((word) => word.toLowerCase());

/** A one-shot file named for migrations (`migration.ts`, `run-db-migrations.ts`): the service's migrate script under another name. */
const isNamedMigrationScript = (context: Context): boolean => {
  const filename = context.filename;
  // Every file is asked: a base name without `igration` (`migration`, `Migration`) has neither word, and needs no split.
  if (filename.lastIndexOf('igration') < Math.max(filename.lastIndexOf('/'), filename.lastIndexOf('\\'))) return false;
  if (!baseNameWords(filename).some((word) => word === 'migration' || word === 'migrations')) return false;
  // Or it builds the application for one step and closes it, or it only calls a runner another module defines (runner-call-scripts.ts),
  // or it builds the application for one step and serves nothing (unserved-apps.ts).
  const sourceCode = context.sourceCode;
  const program = sourceCode.ast as TSESTree.Program;
  return isOneShot(sourceCode) || buildsAppToRunOnce(sourceCode) || onlyCallsImportedRunner(program) || buildsAppWithoutServing(sourceCode);
};

/** The last file's role: three rules ask in a row. */
let lastRole: FileRole | undefined;
onForgetLastFile(() => (lastRole = undefined));

function fileRoleOf(context: Context): FileRole {
  // ESLint parses a file into a new SourceCode for every lint of it (and every fix pass), so one
  // SourceCode (and its Program) means one file, path and configuration.
  const sourceCode = context.sourceCode;
  if (lastRole?.sourceCode === sourceCode && lastRole.ast === sourceCode.ast) return lastRole;
  lastRole = { sourceCode, ast: sourceCode.ast, migrateEntrypoint: undefined, exempt: undefined, dataStep: undefined };
  return lastRole;
}

/**
 * Whether `filename` is a migrate entrypoint: it matches the `migrateEntrypoints` globs, or (with
 * the globs left at their defaults) a package.json `migrate` script runs it. Members of the
 * context are read only when the answer needs them: such reads are slow in a hot path, and most
 * paths are rejected by a string search.
 */
function isEntrypoint(context: Context, filename: string, settings: ReplicaGuardSettings): boolean {
  const globs = settings.migrateEntrypoints;
  return (
    (mayMatchAny(filename, globs) && matchesAny(filename, context.cwd, globs)) ||
    (isDefault(globs) &&
      (isRunByMigrateScript(filename) ||
        isNamedMigrationScript(context) ||
        isUnnamedMigrationScript(context, () => baseNameWords(filename))))
  );
}

/**
 * Whether the linted file is a migrate entrypoint by its name alone (the default globs): no
 * package.json script runs it and the user named no entrypoints. Such a file may be any script
 * someone called `migrate…`. So is a file a migrate script runs only as a step beside the
 * migrator's own command (`tsx scripts/fix-names.ts && knex migrate:latest`): the command
 * migrates, and the file is judged by what it runs itself.
 */
export function isEntrypointByNameOnly(context: Context): boolean {
  if (!isDefault(readSettings(context.settings).migrateEntrypoints)) return false;
  return !isRunByMigrateScript(context.filename) || isStepBesideMigratorCommand(context.filename);
}

/**
 * Whether the linted entrypoint is a tool for writing, inspecting or undoing migrations by hand,
 * not the deploy step every pod runs: only authoring scripts run it (`"migration:generate": "tsx
 * scripts/new-migration.ts"`), or, found by its name alone, its name says so (`migrate-dev.ts`,
 * `migrate-create.ts`). It stays a file that may write schema; its entrypoint checks do not apply.
 */
export function isMigrationAuthoringTool(context: Context): boolean {
  if (!isDefault(readSettings(context.settings).migrateEntrypoints)) return false;
  const filename = context.filename;
  if (isRunOnlyByAuthoringScripts(filename)) return true;
  return !isRunByMigrateScript(filename) && baseNameWords(filename).some((word) => MIGRATION_AUTHORING_WORDS.includes(word));
}

/** Whether the linted file is a migrate entrypoint (`migrateEntrypoints`). */
export function isMigrateEntrypointFile(context: Context): boolean {
  const role = fileRoleOf(context);
  return (role.migrateEntrypoint ??= isEntrypoint(context, context.filename, readSettings(context.settings)));
}

/**
 * A framework's service or module the default `migrationFiles` globs take in only by its folder (`migration/migration.service.ts`),
 * or the folder's index module that exports no step (`migrations/index.js`, data-steps.ts): the application's runner.
 */
const isDefaultFolderRunner = (globs: readonly string[], filename: string, program: TSESTree.Program): boolean =>
  (isFrameworkRoleFile(filename.replace(/\\/g, '/')) || isMigrationFolderIndex(filename, program)) &&
  isLeftAt(globs, DEFAULT_MIGRATION_FILES);

/**
 * Test code or a file in a folder named for migrations, told by the path inside the project (never
 * by folders above it); a framework's service or module there (`migration/migration.service.ts`)
 * is the application's runner, not a migration file.
 */
const isTestOrMigrationPath = (path: string | undefined, program: TSESTree.Program): boolean =>
  path !== undefined &&
  (isTestFilePath(path) || (isInMigrationFolder(path) && !isFrameworkRoleFile(path) && !isMigrationFolderIndex(path, program)));

/**
 * Whether the file opens with a generator's notice (`This is code generated by Prisma. Do not
 * edit`, `Code generated by … DO NOT EDIT.`): a library's output copied into the source (a
 * generated client's runtime), whose migrator methods are definitions the app may call, not a run.
 */
function isGeneratedFile(sourceCode: Context['sourceCode']): boolean {
  const first = sourceCode.ast.comments?.[0];
  if (!first || first.range[0] > 200) return false;
  return /\bgenerated\b/i.test(first.value) && /\bdo not (?:edit|modify)\b/i.test(first.value);
}

/** Whether the linted file may write schema: a migrate entrypoint, a migration file, test code (by path or by the scripts that run it), or a command-line script. */
export function isMigrationExemptFile(context: Context): boolean {
  return isExemptByRole(context) || isMigrateEntrypointFile(context);
}

/**
 * Whether the linted file's schema writes are its own business, as `isMigrationExemptFile`, less a
 * module only its name makes a migrate entrypoint (`src/db/migrate.ts`, no migrate script runs
 * it, `isEntrypointByNameOnly`) that starts nothing when loaded (`startsNothing`: it exports a
 * `migrate()` others call), lies in no command folder (`cli/`, `commands/`, `cmd/`, `scripts/`)
 * and is imported by a module of its package (or the package is out of view): a helper whose run
 * is wherever it is called, a server's start included. Its writes are judged as any module's (a
 * caller that is a tool or a test is asked of the call, `outsideToolWrappers`). One that no module
 * imports is started from outside (a container's entrypoint, `node -e`): the entrypoint it is named.
 */
export function isSchemaWriteExemptFile(context: Context): boolean {
  if (isExemptByRole(context)) return true;
  if (!isMigrateEntrypointFile(context)) return false;
  return !isMigrateHelperModule(context);
}

/**
 * Whether the linted file, a migrate entrypoint by its name alone, is a helper module: it starts
 * nothing when loaded, lies in no command folder, and a module of its package imports it or the
 * package is out of view (`isSchemaWriteExemptFile`). Its importers run it.
 */
export function isMigrateHelperModule(context: Context): boolean {
  return (
    isEntrypointByNameOnly(context) &&
    startsNothing(context.sourceCode.ast as TSESTree.Program) &&
    !inFolderOf(context, ENTRYPOINT_FOLDERS) &&
    modulesImporting(context)?.length !== 0
  );
}

/** Folders of commands and scripts (`COMMAND_FOLDERS`, `cmd`, `scripts`): a module there named like a migrate entrypoint is one. */
const ENTRYPOINT_FOLDERS: ReadonlySet<string> = new Set([...COMMAND_FOLDERS, 'cmd', 'scripts', 'script']);

/** Whether the linted file may write schema by its role, its being a migrate entrypoint aside. */
function isExemptByRole(context: Context): boolean {
  const role = fileRoleOf(context);
  if (role.exempt === undefined) {
    // A `#!` script is a command someone runs (a migrate CLI like `knex migrate:latest`), not the
    // server every replica starts.
    const sourceCode = context.sourceCode;
    const filename = context.filename;
    const globs = readSettings(context.settings).migrationFiles;
    role.exempt =
      sourceCode.text.startsWith('#!') ||
      (mayMatchAny(filename, globs) &&
        matchesAny(filename, context.cwd, globs) &&
        !isDefaultFolderRunner(globs, filename, sourceCode.ast as TSESTree.Program)) ||
      isTestOrMigrationPath(projectPath(filename, context.cwd), sourceCode.ast as TSESTree.Program) ||
      isOneShot(sourceCode) ||
      isGeneratedFile(sourceCode) ||
      isRunOnlyByTestScripts(filename);
  }
  return role.exempt;
}

/**
 * Whether the linted file is a data-migration step (data-steps.ts): it lies in a folder named for
 * migrations (by its path inside the project) and exports `up`. A migrator runs it once, in one
 * process: no rule's race applies. Asked at a rule's first finding, and kept for the file.
 */
export function isMigrationStepFile(context: Context): boolean {
  const role = fileRoleOf(context);
  if (role.dataStep === undefined) {
    const path = projectPath(context.filename, context.cwd);
    role.dataStep = path !== undefined && isInMigrationFolder(path) && exportsMigrationStep(context.sourceCode.ast as TSESTree.Program);
  }
  return role.dataStep;
}

/** A script's name words that make it an operator's chore (`isOneOffScriptName`) or the test tooling's (`isTestScriptName`). */
const isChoreWord = (word: string): boolean => isOneOffScriptName(word) || isTestScriptName(word);

/**
 * A file named for a one-off database chore (`seed.ts`, `reset-db.ts`, `backfill-emails.ts`:
 * `isOneOffScriptName`) or for the test tooling (`prepareTestDb.ts`, `setup-e2e-db.ts`:
 * `isTestScriptName`) that starts its own run at its top level (`runAll();`, `main().catch(…)`,
 * an async IIFE) and never again (`RUNS_AGAIN`): the chore's script, typed by an operator or a
 * test runner's set-up, whatever runs it.
 */
function isOneOffChoreByName(context: Context): boolean {
  if (!baseNameWords(context.filename).some(isChoreWord)) return false;
  // A chore that comes back on a timer (`purge.ts` that also sets an interval) is a job, not a command typed once.
  if (RUNS_AGAIN.test(context.sourceCode.text)) return false;
  const program = context.sourceCode.ast as TSESTree.Program;
  let found: Map<string, TSESTree.Node> | undefined;
  const bodies = (): Map<string, TSESTree.Node> => (found ??= topLevelFunctionBodies(program));
  return program.body.some((statement) => {
    const call = statement.type === 'ExpressionStatement' ? startedCall(statement.expression) : undefined;
    return call !== undefined && startedBody(call, bodies) !== undefined;
  });
}

/**
 * Whether the linted file is an operator's command, not the server (`CLI_MODULES`,
 * `isCommandLinePackage`, `COMMAND_FOLDERS`): it imports a command-line framework or a prompt
 * library, lies in a command-line package or in a command folder of a package that declares a
 * `bin`, or only an operator's one-off database chores run it (`"db:truncate": "tsx
 * server/db/reset.ts"`, `isOneOffScriptName`), and does not itself start a server. Asked only of files that hold a
 * schema write, after the rule's own checks.
 */
function isOperatorCommandFile(context: Context): boolean {
  const sourceCode = context.sourceCode;
  // An application built only to run one step and close (`NestFactory.create`, then `app.close()`) serves nothing.
  if (SERVER_START.test(sourceCode.text)) return buildsAppToRunOnce(sourceCode);
  const program = sourceCode.ast as TSESTree.Program;
  if (program.body.some((statement) => runsOnlyWhenStartedDirectly(statement, sourceCode))) return true;
  // Run only when the variable of a seed or reset command is set (`if (process.env.SEED) seed();`).
  if (runsOnlyWhenChoreSwitchedOn(program)) return true;
  // Nothing but loads and the run, exporting nothing (`node db.js`).
  if (isBareSchemaScript(program)) return true;
  for (const module of moduleSpecifiers(program)) if (CLI_MODULES.has(module)) return true;
  return (
    isInCommandLinePackage(context.filename) ||
    isInCommandFolder(context.filename) ||
    isMigrateCommandModule(context) ||
    isRunOnlyByOneOffScripts(context.filename) ||
    isOneOffChoreByName(context)
  );
}

/**
 * A module of a command folder (`COMMAND_FOLDERS`) named for the migrate command (`commands/migrate_database.js`,
 * `cli/MigrateCommand.ts`, `bin/db-migrate.js`): the command an operator types, whatever package holds it.
 */
function isMigrateCommandModule(context: Context): boolean {
  const [first, second] = baseNameWords(context.filename);
  const named = /^migrat/.test(first ?? '') || (['db', 'database', 'schema'].includes(first ?? '') && /^migrat/.test(second ?? ''));
  return named && inFolderOf(context, COMMAND_FOLDERS);
}

/** Whether the linted file lies in a folder named in `folders` (lower case), told by its path inside the project. */
function inFolderOf(context: Context, folders: ReadonlySet<string>): boolean {
  const path = projectPath(context.filename, context.cwd);
  return (
    path !== undefined &&
    path
      .split(/[\\/]/)
      .slice(0, -1)
      .some((folder) => folders.has(folder.toLowerCase()))
  );
}

/** Whether the linted file lies in a folder a scheduler runs (`SCHEDULE_FOLDERS`). */
const inScheduleFolder = (context: Context): boolean => inFolderOf(context, SCHEDULE_FOLDERS);

/** Folders of a project's hand-run scripts (`apps/web/scripts/programs/fix-payouts.ts`). */
const SCRIPT_FOLDERS: ReadonlySet<string> = new Set(['scripts', 'script']);

/**
 * A script someone runs by hand: it lies in a scripts folder (by its path inside the project),
 * its top level starts one run (`main();`, `main().catch(…)`, an async IIFE) of a function of its
 * own, and it starts no server.
 */
function startsScriptRun(context: Context): boolean {
  if (!inFolderOf(context, SCRIPT_FOLDERS)) return false;
  const program = context.sourceCode.ast as TSESTree.Program;
  let bodies: Map<string, TSESTree.Node> | undefined;
  const bodiesOf = (): Map<string, TSESTree.Node> => (bodies ??= topLevelFunctionBodies(program));
  const startsRun = (statement: TSESTree.Statement): boolean => {
    const call = statement.type === 'ExpressionStatement' ? startedCall(statement.expression) : undefined;
    return call !== undefined && startedBody(call, bodiesOf) !== undefined;
  };
  return program.body.some(startsRun) && !SERVER_START.test(context.sourceCode.text);
}

/**
 * `report`, dropping every finding of a data-migration step a migrator runs once
 * (`isMigrationStepFile`) and of a one-off command an operator runs by hand: an operator's
 * command (see `isOperatorCommandFile`: a command-line framework, a file that runs only when
 * started directly, a command folder), a file whose one run ends the process (`isOneShot`), or a
 * script started from a scripts folder (`startsScriptRun`), that neither runs again (`RUNS_AGAIN`: a timer, an endless
 * loop, a cron) nor lies in a folder a scheduler runs. A worker or a scheduled job started as a
 * command stays reported, wherever it lies. Asked once, at the first finding.
 */
export function outsideOneOffCommands<Report extends (descriptor: never) => void>(context: Context, report: Report): Report {
  let oneOff: boolean | undefined;
  return ((descriptor: never) => {
    oneOff ??=
      isMigrationStepFile(context) ||
      ((isOperatorCommandFile(context) || isOneShot(context.sourceCode) || startsScriptRun(context)) &&
        !RUNS_AGAIN.test(context.sourceCode.text) &&
        !inScheduleFolder(context));
    if (!oneOff) report(descriptor);
  }) as Report;
}

/** Whether a module is no part of a replica's start: a file that may migrate (test code, a migrate entrypoint, a one-shot script…) or an operator's command. */
export function isToolOrTestModule(context: Context): boolean {
  return isMigrationExemptFile(context) || isOperatorCommandFile(context);
}

/** `report`, dropping every finding of a file that is an operator's command (asked once, at the first finding). */
export function outsideOperatorCommands<Report extends (descriptor: never) => void>(context: Context, report: Report): Report {
  let operatorCommand: boolean | undefined;
  return ((descriptor: never) => {
    operatorCommand ??= isOperatorCommandFile(context);
    if (!operatorCommand) report(descriptor);
  }) as Report;
}
