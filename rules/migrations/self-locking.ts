// Whether a migrate entrypoint's migrator runs are serialised by the migrators themselves: knex's
// lock table, node-pg-migrate's, Prisma's, Kysely's and @slonik/migrator's advisory locks
// (`MIGRATOR_LOCKS`, a Kysely `Migrator` or a `SlonikMigrator` counted where it is constructed, in
// this file or in the project function the run is handed to, `prisma migrate deploy` spawned as one string or in pieces), or go to a database that is not PostgreSQL
// (`NOT_POSTGRES_MIGRATOR_MODULE`: SQLite, libSQL/Turso). Such an entrypoint
// needs no advisory lock of its own; one run of a migrator without a lock (or with it turned off,
// `noLock: true`) and the entrypoint still needs one.
import { RECEIVER_EVIDENCE } from '../../src/knowledge/migrator-receivers.js';
import type { TSESTree } from '@typescript-eslint/utils';
import type { DetectContext } from '../utils/create-rule.js';
import { importedReferences, type TrackedApi } from '../../analysis/imports/imported-references.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { hasEvidence, schemaWriteFunctionCatalogue, viaMatches } from './method-entries.js';
import { defineFunctionFact, projectFunctionOf, type ProjectFunction } from '../../analysis/modules/index.js';
import { moduleBindings } from '../../analysis/imports/module-bindings.js';
import { descendants } from '../../analysis/sql/descendants.js';
import {
  MIGRATE_LOCK_FUNCTIONS,
  MIGRATOR_CLASSES,
  SCHEMA_WRITE_FUNCTIONS,
  SCHEMA_WRITE_METHODS,
  prismaSchemaCommand,
  type MigratorLibrary,
} from '../../src/knowledge/migrators.js';
import { MIGRATOR_LOCKS } from '../../src/knowledge/migrator-locks.js';
import { NOT_POSTGRES_MIGRATOR_MODULE } from '../../src/knowledge/embedded-databases.js';
import { SPAWN_CATALOGUE, schemaWriteCommands } from './command-text.js';
import { locksInTransaction } from './transaction-lock.js';

interface MigratorRun {
  library: MigratorLibrary;
  call?: TSESTree.CallExpression;
  /** The migrator speaks to a database that is not PostgreSQL (`NOT_POSTGRES_MIGRATOR_MODULE`). */
  notPostgres?: boolean;
}

/** `new Migrator({ db, provider })` from kysely: the run, whoever calls its methods. */
const MIGRATOR_CLASS_CATALOGUE: TrackedApi<MigratorLibrary>[] = MIGRATOR_CLASSES.map((api) => ({
  modules: api.modules,
  path: api.path,
  kind: 'construct' as const,
  entry: api.library,
}));

/** Module specifiers the file imports or requires. */
function importedModules(program: TSESTree.Program, calls: readonly TSESTree.CallExpression[]): Set<string> {
  const modules = new Set<string>();
  for (const statement of program.body) if (statement.type === 'ImportDeclaration') modules.add(statement.source.value);
  for (const call of calls) {
    const [argument] = call.arguments;
    if (
      call.callee.type === 'Identifier' &&
      call.callee.name === 'require' &&
      argument?.type === 'Literal' &&
      typeof argument.value === 'string'
    )
      modules.add(argument.value);
  }
  return modules;
}

/** Whether a call's options turn its migrator's own lock off (`runner({ noLock: true })`). */
function optsOut(run: MigratorRun): boolean {
  const option = MIGRATOR_LOCKS[run.library].optOut;
  if (!option || !run.call) return false;
  return run.call.arguments.some((argument) => {
    const object = unwrapExpression(argument);
    return (
      object.type === 'ObjectExpression' &&
      object.properties.some(
        (p) =>
          p.type === 'Property' &&
          ((p.key.type === 'Identifier' && p.key.name === option) || (p.key.type === 'Literal' && p.key.value === option)) &&
          !(p.value.type === 'Literal' && p.value.value === false),
      )
    );
  });
}

/** The migrator runs a file makes: imported migrate functions, catalogue methods, and `prisma migrate deploy` commands. */
export function migratorRuns(
  context: DetectContext,
  program: TSESTree.Program,
  calls: readonly TSESTree.CallExpression[],
  strings: readonly string[],
): MigratorRun[] {
  const modules = importedModules(program, calls);
  // One entry per imported module, so that a run knows its driver (`drizzle-orm/libsql/migrator`).
  const catalogue: TrackedApi<Omit<MigratorRun, 'call'>>[] = schemaWriteFunctionCatalogue(modules).flatMap((api) =>
    api.modules.map((module) => ({
      ...api,
      modules: [module],
      entry: { library: api.entry.library, notPostgres: module !== null && NOT_POSTGRES_MIGRATOR_MODULE.test(module) },
    })),
  );
  const runs: MigratorRun[] = importedReferences(context, catalogue).map((ref) => ({
    ...ref.entry,
    call: ref.node.type === 'CallExpression' ? ref.node : undefined,
  }));
  if (MIGRATOR_CLASSES.some((api) => api.modules.some((module) => modules.has(module))))
    for (const ref of importedReferences(context, MIGRATOR_CLASS_CATALOGUE)) runs.push({ library: ref.entry });
  for (const call of calls) {
    const callee = unwrapExpression(call.callee);
    const method = memberPropertyName(callee);
    if (callee.type !== 'MemberExpression' || !method) continue;
    const entry = SCHEMA_WRITE_METHODS.find(
      // A library whose receivers must show themselves (`db.sequelize.sync()` on a client `./db` builds) needs no import here.
      (m) =>
        m.methods.includes(method) &&
        (hasEvidence(m, modules) || RECEIVER_EVIDENCE[m.library] !== undefined) &&
        viaMatches(m, callee.object, context.sourceCode),
    );
    if (entry) runs.push({ library: entry.library, call });
  }
  if (strings.some((text) => /^prisma migrate deploy$/.test(prismaSchemaCommand(text) ?? ''))) runs.push({ library: 'prisma' });
  // `spawnSync('prisma', ['migrate', mode, '--schema', file])`: the command in pieces, one of them a choice.
  if (context.sourceCode.text.includes('migrate')) {
    const spawns: Array<[TSESTree.Node, readonly TSESTree.Node[]]> = [];
    for (const ref of importedReferences(context, SPAWN_CATALOGUE))
      if (ref.node.type === 'CallExpression') spawns.push([ref.node, ref.node.arguments]);
    for (const [node, command] of spawns.length > 0 ? schemaWriteCommands(spawns, context.sourceCode) : [])
      if (/\bmigrate deploy$/.test(command) && node.type === 'CallExpression') runs.push({ library: 'prisma', call: node });
  }
  return runs;
}

/** An advisory lock taken in SQL text (`SELECT pg_try_advisory_lock(…)`). */
export const ADVISORY_LOCK_SQL = new RegExp(`\\b(?:${MIGRATE_LOCK_FUNCTIONS.join('|')})\\s*\\(`, 'i');
const LOCKING_CLASS_MODULES: ReadonlySet<string> = new Set(
  MIGRATOR_CLASSES.filter((api) => MIGRATOR_LOCKS[api.library].locksItself).flatMap((api) => api.modules),
);

/**
 * Whether a project function holds a cross-process lock for its run: advisory-lock SQL in its
 * strings (`withAdvisoryLock` around the runner), a migrator class that locks itself constructed
 * (`new SlonikMigrator({ … })` in a `getMigrator()` of another module), a migrator function that
 * locks itself called (`pgMigrate({ client }, dir)` of postgres-schema-migrations), `pg_advisory_xact_lock`
 * sent inside its own transaction (`BEGIN`, the lock, the files, `COMMIT`), or a function it calls
 * (three deep, in any module) that does.
 */
export const locksForItsRun: (fn: ProjectFunction) => boolean = defineFunctionFact<boolean>('locks for its run', false, (fn, follow) => {
  const bindings = moduleBindings(fn.module.sourceCode.ast as TSESTree.Program);
  const strings: Array<{ node: TSESTree.Node; text: string }> = [];
  const calls: TSESTree.CallExpression[] = [];
  for (const node of descendants(fn.fn, fn.module.sourceCode.visitorKeys)) {
    if (node.type === 'Literal' && typeof node.value === 'string' && ADVISORY_LOCK_SQL.test(node.value)) return true;
    if (node.type === 'TemplateElement' && ADVISORY_LOCK_SQL.test(node.value.raw)) return true;
    if (
      node.type === 'NewExpression' &&
      node.callee.type === 'Identifier' &&
      LOCKING_CLASS_MODULES.has(bindings.get(node.callee.name) ?? '')
    )
      return true;
    if (node.type === 'Literal' && typeof node.value === 'string') strings.push({ node, text: node.value });
    if (node.type === 'TemplateLiteral') strings.push({ node, text: node.quasis.map((q) => q.value.cooked ?? '').join('') });
    if (node.type === 'CallExpression') {
      calls.push(node);
      // A migrator function that locks itself (`migrate(config, dir)` of postgres-migrations, imported under any name).
      if (callsLockingMigrator(node, bindings)) return true;
      const inner = follow(node.callee);
      if (inner && locksForItsRun(inner)) return true;
    }
  }
  // `pg_advisory_xact_lock` inside the transaction that runs the migrations: held until its COMMIT.
  return locksInTransaction(strings, calls, fn.module.sourceCode);
});

/** Modules of the catalogue's migrator functions that take a lock of their own (`postgres-migrations`, `graphile-migrate`). */
const LOCKING_FUNCTION_MODULES: ReadonlyMap<string, MigratorLibrary> = new Map(
  SCHEMA_WRITE_FUNCTIONS.filter((fn) => Array.isArray(fn.modules) && MIGRATOR_LOCKS[fn.library].locksItself).flatMap((fn) =>
    (fn.modules as readonly string[]).map((module) => [module, fn.library] as const),
  ),
);

/** Whether a call is of a self-locking migrator function imported by the module (`bindings`), its lock not turned off. */
function callsLockingMigrator(call: TSESTree.CallExpression, bindings: ReadonlyMap<string, string>): boolean {
  const callee = unwrapExpression(call.callee);
  const library = callee.type === 'Identifier' ? LOCKING_FUNCTION_MODULES.get(bindings.get(callee.name) ?? '') : undefined;
  return library !== undefined && !optsOut({ library, call });
}

/**
 * Whether the entrypoint hands its run to another module of the project that holds a lock for it
 * (`await runTenantMigrations(url)` whose runner takes `pg_try_advisory_lock`, `const { migrator } =
 * await getMigrator()` that builds a `SlonikMigrator`). Asked only when the file runs no migrator
 * of its own.
 */
function delegatesToLockedRun(context: DetectContext, calls: readonly TSESTree.CallExpression[]): boolean {
  return calls.some((call) => {
    const fn = projectFunctionOf(context, call.callee);
    return fn !== undefined && fn.module.path !== context.filename && locksForItsRun(fn);
  });
}

/**
 * Whether the file runs migrators, and every one of them takes its own cross-process lock or
 * speaks to a database where a PostgreSQL advisory lock does not apply; or, running none itself,
 * hands its run to a project function in another module that holds a lock for it.
 */
export function migratorsLockThemselves(
  context: DetectContext,
  program: TSESTree.Program,
  calls: readonly TSESTree.CallExpression[],
  strings: readonly string[],
): boolean {
  const runs = migratorRuns(context, program, calls, strings);
  if (runs.length === 0) return delegatesToLockedRun(context, calls);
  return runs.every((run) => run.notPostgres === true || (MIGRATOR_LOCKS[run.library].locksItself && !optsOut(run)));
}
