// Schema writes one call away, in another module of the project (module summaries): a function
// the app calls at boot (`await setupDatabase()` from './db') that runs a migrator, directly or
// through up to three calls, or sends hand-written schema DDL to a shared database
// (`migrateSessionColumn()` running `ALTER TABLE …`, ddl-executions.ts; a function of the linted
// file too, reported at its call); and TypeORM options an app imports from a module that builds them
// (`new DataSource(options)` with `options` from './data-source'). Facts are computed with the
// same catalogue matching the rule uses on the linted file.
import type { TSESTree } from '@typescript-eslint/utils';
import {
  defineFunctionFact,
  projectFunctionOf,
  projectValueOf,
  type FollowCall,
  type ProjectFunction,
  type ProjectModule,
} from '../../analysis/modules/index.js';
import type { DetectContext } from '../../analysis/detect-context.js';
import { importedReferences, moduleSpecifiers } from '../../analysis/imports/imported-references.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { memberPropertyName, propertyKeyName } from '../../analysis/ast/property-names.js';
import { SCHEMA_WRITE_METHODS, SCHEMA_WRITE_OPTIONS } from '../../src/knowledge/migrators.js';
import { namesSchemaUpdater } from '../../src/knowledge/migration-runs.js';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import { hasEvidence, schemaWriteFunctionCatalogue, viaMatches } from './method-entries.js';
import { isDatabaseArgument, isInMigrationDefinition, migrationRunnerCall } from './runner-calls.js';
import { mayReachDatabase } from './database-evidence.js';
import { isTypeOrmOptionsObject } from './typed-options.js';
import { isOptionOff } from './option-off.js';
import { SPAWN_CATALOGUE, schemaWriteCommands } from './command-text.js';
import { migratesEmbeddedClient, receiverIsEmbedded } from './embedded-database.js';
import { runsInSqliteBranch } from './sqlite-branch.js';
import { sqlFileRuns } from './sql-file-runs.js';
import { sendsSchemaDdl, writesSharedSchema } from './ddl-executions.js';
import { nameWords } from '../../analysis/ast/name-words.js';
import { projectPath } from '../../analysis/source/project-path.js';
import { isTestFilePath } from '../../src/knowledge/file-conventions.js';

type Node = TSESTree.Node;

/** Per module: the calls of imported migrator functions (Drizzle's `migrate`, node-pg-migrate's runner). */
const migratorCalls = new WeakMap<object, ReadonlySet<Node>>();
function migratorFunctionCalls(module: ProjectModule): ReadonlySet<Node> {
  let calls = migratorCalls.get(module.sourceCode);
  if (!calls) {
    const catalogue = schemaWriteFunctionCatalogue(moduleSpecifiers(module.sourceCode.ast as TSESTree.Program));
    calls = new Set(catalogue.length > 0 ? importedReferences(module.context, catalogue).map((ref) => ref.node as Node) : []);
    migratorCalls.set(module.sourceCode, calls);
  }
  return calls;
}

/** Per module: the calls that send each `.sql` file of a folder to the database (`sqlFileRuns`); only a module that reads files is looked at. */
const folderRuns = new WeakMap<object, ReadonlySet<Node>>();
function sqlFolderRuns(module: ProjectModule): ReadonlySet<Node> {
  let calls = folderRuns.get(module.sourceCode);
  if (!calls) {
    const text = module.sourceCode.text;
    const modules = moduleSpecifiers(module.sourceCode.ast as TSESTree.Program);
    calls = new Set(text.includes('readFile') && text.includes('.sql') ? sqlFileRuns(module.sourceCode, modules, true) : []);
    folderRuns.set(module.sourceCode, calls);
  }
  return calls;
}

/** Per module: the spawns of a Prisma schema command (`execSync(`${prismaBin} migrate deploy`)`); only a module that names Prisma is read. */
const commandCalls = new WeakMap<object, ReadonlySet<Node>>();
function schemaCommandCalls(module: ProjectModule): ReadonlySet<Node> {
  let calls = commandCalls.get(module.sourceCode);
  if (!calls) {
    const spawns = module.sourceCode.text.includes('prisma')
      ? importedReferences(module.context, SPAWN_CATALOGUE).flatMap((ref) =>
          ref.node.type === 'CallExpression' ? [[ref.node, ref.node.arguments] as const] : [],
        )
      : [];
    calls = new Set(spawns.length > 0 ? schemaWriteCommands(spawns, module.sourceCode).map(([call]) => call) : []);
    commandCalls.set(module.sourceCode, calls);
  }
  return calls;
}

/**
 * Whether a function is handed out, not run: a method or property of an object literal that the
 * function around it returns (`return { async sync() { … } }`, `(knex) => ({ latest: () => … })`).
 * A factory that builds migration tools runs none of them.
 */
function isHandedOutDefinition(node: Node): boolean {
  if (node.type !== 'FunctionExpression' && node.type !== 'ArrowFunctionExpression') return false;
  let child: Node = node;
  let parent = node.parent;
  while (parent?.type === 'Property' || parent?.type === 'ObjectExpression') {
    if (parent.type === 'Property' && parent.value !== child) return false;
    child = parent;
    parent = parent.parent;
  }
  if (child.type !== 'ObjectExpression') return false;
  return parent?.type === 'ReturnStatement' || (parent?.type === 'ArrowFunctionExpression' && parent.body === child);
}

/** The calls a function's body makes when it runs: calls inside the functions it hands out (returned methods) are left out. */
function callsIn(root: Node): TSESTree.CallExpression[] {
  const out: TSESTree.CallExpression[] = [];
  const visit = (node: Node): void => {
    if (isHandedOutDefinition(node)) return;
    if (node.type === 'CallExpression') out.push(node);
    for (const [key, child] of Object.entries(node)) {
      if (key === 'parent') continue;
      for (const c of Array.isArray(child) ? child : [child]) if (c && typeof (c as Node).type === 'string') visit(c as Node);
    }
  };
  visit(root);
  return out;
}

/**
 * Whether a call of a runner told by its name (`runMigrations(parsedJson, SETTINGS_PATH)`) reaches
 * a project function whose body is read and runs no schema write and shows no database (a settings
 * file's keys rewritten): it migrates something else. A database handed to it as an argument, or a
 * runner whose body cannot be read (a package, a missing module), keeps the name's verdict.
 */
export function migratesSomethingElse(call: TSESTree.CallExpression, runner: ProjectFunction | undefined): boolean {
  return runner !== undefined && !call.arguments.some(isDatabaseArgument) && !runsSchemaWrites(runner) && !mayReachDatabase(runner);
}

/**
 * Whether a call, read in its own module, is a schema write the rule would report there, or with
 * `ddl` also hand-written DDL sent to a shared database; `target` resolves what it calls.
 */
function isSchemaWriteCall(
  call: TSESTree.CallExpression,
  fn: ProjectFunction,
  target: () => ProjectFunction | undefined,
  ddl: boolean,
): boolean {
  if (isInMigrationDefinition(call)) return false;
  if (migratorFunctionCalls(fn.module).has(call)) return !migratesEmbeddedClient(call, fn.module.sourceCode);
  if (schemaCommandCalls(fn.module).has(call) || sqlFolderRuns(fn.module).has(call)) return true;
  const callee = unwrapExpression(call.callee);
  const method = callee.type === 'MemberExpression' ? memberPropertyName(callee) : undefined;
  if (callee.type === 'MemberExpression' && method !== undefined) {
    const modules = moduleSpecifiers(fn.module.sourceCode.ast as TSESTree.Program);
    const entry = SCHEMA_WRITE_METHODS.find(
      (m) => m.methods.includes(method) && hasEvidence(m, modules) && viaMatches(m, callee.object, fn.module.sourceCode),
    );
    if (entry) return !receiverIsEmbedded(callee.object, fn.module.sourceCode) && !runsInSqliteBranch(call, fn.module.sourceCode);
  }
  // Hand-written DDL (`db.execute(sql`ALTER TABLE …`)`): a schema write unless per host or locked.
  if (ddl && sendsSchemaDdl(call, fn.module.sourceCode)) return writesSharedSchema(call, fn);
  if (migrationRunnerCall(call, fn.module.sourceCode) === undefined || migratesEmbeddedClient(call, fn.module.sourceCode)) return false;
  return !migratesSomethingElse(call, target());
}

/** Whether a project function runs schema writes: a migrator call in its body, or in a function it calls (three deep). */
export const runsSchemaWrites: (fn: ProjectFunction) => boolean = defineFunctionFact<boolean>('runsSchemaWrites', false, (fn, follow) =>
  reachesSchemaWrite(fn, follow, false),
);

/** The same, hand-written DDL sent to a shared database counted too (`migrateSessionColumn()` running `ALTER TABLE …`). */
export const runsSchemaWritesOrDdl: (fn: ProjectFunction) => boolean = defineFunctionFact<boolean>(
  'runsSchemaWritesOrDdl',
  false,
  (fn, follow) => reachesSchemaWrite(fn, follow, true),
);

function reachesSchemaWrite(fn: ProjectFunction, follow: FollowCall, ddl: boolean): boolean {
  if (!fn.fn.body) return false;
  for (const call of callsIn(fn.fn.body)) {
    if (isSchemaWriteCall(call, fn, () => follow(call.callee), ddl)) return true;
    const inner = follow(call.callee);
    if (inner && (ddl ? runsSchemaWritesOrDdl(inner) : runsSchemaWrites(inner))) return true;
  }
  return false;
}

/**
 * Whether a project function's own body sends schema DDL to a shared database (see
 * ddl-executions.ts): asked of a function of the linted file, whose migrator calls are reported
 * where they stand but whose hand-written DDL is reported at its call.
 */
export function sendsSchemaDdlItself(fn: ProjectFunction): boolean {
  return (
    fn.fn.body != null && callsIn(fn.fn.body).some((call) => sendsSchemaDdl(call, fn.module.sourceCode) && writesSharedSchema(call, fn))
  );
}

/** Schema-write options of TypeORM options imported from another module that does not itself show them to be TypeORM's (else they are reported there). */
export function importedSchemaWriteOptions(
  context: DetectContext,
  argument: Node | undefined,
): Array<{ option: string; value: string; module: string }> {
  const identifier = argument && unwrapExpression(argument);
  if (identifier?.type !== 'Identifier') return [];
  const value = projectValueOf(context, identifier);
  const object = value && unwrapExpression(value.node);
  if (!value || value.module.path === context.filename || object?.type !== 'ObjectExpression' || isTypeOrmOptionsObject(object)) return [];
  const out: Array<{ option: string; value: string; module: string }> = [];
  for (const property of object.properties) {
    const option = property.type === 'Property' ? propertyKeyName(property) : undefined;
    if (!option || property.type !== 'Property' || !SCHEMA_WRITE_OPTIONS.includes(option)) continue;
    if (isOptionOff(property.value)) continue;
    out.push({ option, value: value.module.sourceCode.getText(property.value), module: value.module.path });
  }
  return out;
}

/**
 * Whether hand-written DDL reached through a function with this name is a migration: the name says
 * it migrates (`migrateSessionColumn`, `tryAcquireLockAndMigrate` — a lock it holds serialises the
 * replicas' runs, yet each still runs at every start). A function named for database set-up or
 * views (`initDb`, `createDbView`, `clearDb`) sends DDL on a request, in a reset script or on a
 * device's own file as often as at every start; its DDL is not read.
 */
function isNamedForMigrating(name: string): boolean {
  const words = nameWords(name);
  return words.some((word) => word.startsWith('migrat'));
}

/** The module asked about last, its working directory and whether it is test code: a file's calls mostly resolve into a few modules. */
let lastModule: { path: string; cwd: string; test: boolean } | undefined;

/** Whether a project module (`path`, absolute) is test code by its path inside the project. */
function isTestModule(path: string, cwd: string): boolean {
  if (lastModule?.path !== path || lastModule.cwd !== cwd) lastModule = { path, cwd, test: isTestFilePath(projectPath(path, cwd) ?? '') };
  return lastModule.test;
}

/**
 * An imported function the analysis cannot read (a package, a module out of reach) named for
 * bringing the database's schema up to date (`await updateDb()` at a server's start), handed
 * nothing or a database handle: its name says it runs the schema updates.
 */
function outOfReachUpdater(context: DetectContext, call: TSESTree.CallExpression): string | undefined {
  const callee = unwrapExpression(call.callee);
  if (callee.type !== 'Identifier' || !namesSchemaUpdater(callee.name) || !call.arguments.every(isDatabaseArgument)) return undefined;
  const def = scopeVariable(context.sourceCode, callee)?.defs[0];
  if ((def?.type as string | undefined) !== 'ImportBinding' || runsInSqliteBranch(call, context.sourceCode)) return undefined;
  return `${callee.name}()`;
}

/** The runner a call of a project function is: in another module, when it runs schema writes (`await setupDatabase()` from './db'); in this file, when it sends schema DDL itself. */
export function crossFileRunner(context: DetectContext, call: TSESTree.CallExpression): string | undefined {
  const fn = projectFunctionOf(context, call.callee);
  // A function of this file is judged by its body, here: its migrator calls are reported where
  // they stand, its hand-written DDL (`pool.query('CREATE TABLE …')`) at its call.
  if (!fn) return outOfReachUpdater(context, call);
  const here = fn.module.path === context.filename;
  // Test support a start path loads only under a test switch (`require('test/seed').createInitialDb()`): test code, which no replica runs.
  if (!here && isTestModule(fn.module.path, context.cwd)) return undefined;
  const ddl = isNamedForMigrating(fn.name);
  if (here ? !(ddl && sendsSchemaDdlItself(fn)) : !runsSchemaWrites(fn) && !(ddl && runsSchemaWritesOrDdl(fn))) return undefined;
  // The SQLite branch of a start path that supports a server database too migrates this host's file.
  if (runsInSqliteBranch(call, context.sourceCode)) return undefined;
  return `${fn.className ? `${fn.className}.` : ''}${fn.name}()`;
}
