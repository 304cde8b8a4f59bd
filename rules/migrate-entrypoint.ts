// The migrate entrypoint runs from every pod's entrypoint before the server starts, so it must
// (1) connect with POSTGRES_MIGRATE_URL, directly to PostgreSQL — never the app's PgBouncer URL;
// (2) hold pg_advisory_lock(<service key>) on one pinned connection for the whole run, so pods
// wait for each other instead of racing the same DDL; (3) exit non-zero on failure, so a pod does
// not go on to serve on a schema that was not migrated. `runMigrations` does all three.
import type { TSESTree } from '@typescript-eslint/utils';
import { createRule, type DetectContext } from './utils/create-rule.js';
import { importedReferences } from '../analysis/imports/imported-references.js';
import { migrationEnvReads } from './migrations/env-reads.js';
import {
  isEntrypointByNameOnly,
  isMigrateEntrypointFile,
  isMigrateHelperModule,
  isMigrationAuthoringTool,
} from './migrations/exempt-file.js';
import { exitsNonZero } from './migrations/exit-paths.js';
import { inEventlessTaskHandler } from './migrations/task-handlers.js';
import { migratorRuns, migratorsLockThemselves } from './migrations/self-locking.js';
import {
  functionDefinedHere,
  migrationPath,
  returnsFailureToExit,
  swallowsUnhandledRejections,
  type MigrationPath,
} from './migrate-entrypoint/failure-paths.js';
import { isOnlyPrinted } from './migrate-entrypoint/printed-reads.js';
import { opensEmbeddedDatabase } from './migrate-entrypoint/embedded-reads.js';
import { locksInTransaction } from './migrations/transaction-lock.js';
import { locksOnCheckedOutConnection } from './migrate-entrypoint/checked-out-client.js';
import { rowTestedTryLocks } from './migrate-entrypoint/row-tested-try-locks.js';
import { speaksOnlyMongoDb } from './migrate-entrypoint/mongo-only.js';
import { declaresCommandClass, onlyReExports, onlyTransformsFiles, parsesOwnCommandLine } from './migrate-entrypoint/not-the-run.js';
import { LOCK_SQL, runsMigrations } from './migrations/runs-migrations.js';
import { unwrapExpression } from '../analysis/ast/unwrapped-expression.js';
import { onlyDeclares } from '../analysis/ast/only-declares.js';
import { memberPropertyName } from '../analysis/ast/property-names.js';
import { PG_MODULES, RUN_MIGRATIONS_API } from '../src/knowledge/migrators.js';
import { MIGRATE_URL_VARIABLE, isPoolerUrlLiteral, wrongMigrateUrlVariable } from '../src/knowledge/migrate-urls.js';

export type MigrateEntrypointMessageIds =
  'appUrl' | 'poolerUrl' | 'pool' | 'noLock' | 'rowTestedTryLock' | 'swallowedFailure' | 'floatingMain' | 'handleRejection';

/** What a rewrite (the `extract-migrations` scaffold, or a person) needs per finding. */
export interface MigrateEntrypointFacts {
  kind: 'url' | 'pool' | 'lock' | 'failure' | 'floating';
  /** The wrong variable (`DATABASE_URL`) for `url` findings read from the environment. */
  variable?: string;
  /** The node the finding is about (env read, URL literal, `new Pool`, catch clause, floating call). */
  node: TSESTree.Node;
}

const HANDLE_REJECTION = '.catch((error) => {\n  console.error(error);\n  process.exit(1);\n})';

type Report = Parameters<
  Parameters<typeof createRule<MigrateEntrypointMessageIds, readonly unknown[], MigrateEntrypointFacts>>[0]['detect']
>[1];
type Context = DetectContext;
type SourceCode = Context['sourceCode'];
type StringText = { node: TSESTree.Node; text: string };

/** `main()` / `(async () => …)()` / `main().then(ok)` / `main().finally(f)` — a promise with no rejection handler. */
function floatingCall(expression: TSESTree.Node, sourceCode: SourceCode): TSESTree.CallExpression | undefined {
  const value = unwrapExpression(expression);
  if (value.type !== 'CallExpression') return undefined;
  const callee = unwrapExpression(value.callee);
  const method = memberPropertyName(callee);
  if (callee.type === 'MemberExpression' && (method === 'finally' || (method === 'then' && value.arguments.length < 2)))
    return floatingCall(callee.object, sourceCode);
  if (callee.type === 'MemberExpression') return undefined;
  const fn = functionDefinedHere(callee, sourceCode);
  return fn?.async ? value : undefined;
}

/**
 * 1. The URL: an app or pooler variable, or a pooler URL literal. `migratesNoPostgres` tells whether
 * the file's migrator runs all go to SQLite or libSQL (`drizzle-orm/libsql/migrator`): no PgBouncer there.
 */
function reportUrls(context: Context, strings: readonly StringText[], migratesNoPostgres: () => boolean, report: Report): void {
  // Found by its name alone (no package.json script or setting names it), the file may be any script an operator runs
  // against the database it is pointed at: the app's URL is only wrong for the step every pod runs.
  const byNameOnly = isEntrypointByNameOnly(context);
  for (const read of migrationEnvReads(context)) {
    const why = wrongMigrateUrlVariable(read.name);
    if (why === 'app' && byNameOnly) continue;
    // A URL only printed (a banner, a log line) connects nothing; a SQLite file's path is no PostgreSQL URL.
    if (why && !isOnlyPrinted(read.node) && !opensEmbeddedDatabase(read.node, context.sourceCode) && !migratesNoPostgres())
      report({
        messageId: why === 'app' ? 'appUrl' : 'poolerUrl',
        data: { name: read.name },
        node: read.node,
        facts: { kind: 'url', variable: read.name, node: read.node },
      });
  }
  for (const { node, text } of strings) {
    if (isPoolerUrlLiteral(text)) report({ messageId: 'poolerUrl', node, facts: { kind: 'url', node } });
  }
}

/**
 * Whether a top-level statement runs something: a call (not a directive), a `const` given a call's
 * result, an `if` testing a call's result, an `if` or `switch` a branch of which runs something (a
 * sub-command's), or a `try` whose block does (`try { await run() } catch (e) { …; process.exit(1) }`).
 */
function runsAtTopLevel(statement: TSESTree.Statement | TSESTree.ProgramStatement): boolean {
  if (statement.type === 'ExpressionStatement') return !('directive' in statement && statement.directive);
  if (statement.type === 'TryStatement') return statement.block.body.some(runsAtTopLevel);
  // `if (!(await migrate())) process.exit(1)`: the test runs the call; `if (command === 'up') void up()`: a branch does.
  if (statement.type === 'IfStatement') {
    const test = unwrapExpression(statement.test, { await: true });
    if (unwrapExpression(test.type === 'UnaryExpression' ? test.argument : test, { await: true }).type === 'CallExpression') return true;
    return [statement.consequent, statement.alternate].some((branch) => branch != null && runsInBranch(branch));
  }
  if (statement.type === 'SwitchStatement') return statement.cases.some((c) => c.consequent.some(runsInBranch));
  return (
    statement.type === 'VariableDeclaration' &&
    statement.declarations.some(
      (d) => d.init && ['CallExpression', 'NewExpression', 'AwaitExpression'].includes(unwrapExpression(d.init).type),
    )
  );
}

/** Whether a branch of a top-level `if` or `switch` runs something (a block's statements, or the one statement). */
const runsInBranch = (branch: TSESTree.Statement): boolean =>
  branch.type === 'BlockStatement' ? branch.body.some(runsAtTopLevel) : runsAtTopLevel(branch);

/** 2. The lock, on one pinned connection. */
function reportLock(
  context: Context,
  program: TSESTree.Program,
  strings: readonly StringText[],
  calls: readonly TSESTree.CallExpression[],
  runCall: TSESTree.CallExpression | undefined,
  report: Report,
): void {
  const refs = importedReferences(context, [
    { modules: PG_MODULES, path: ['Pool'], kind: 'construct', entry: 'pool' as const },
    { modules: PG_MODULES, path: ['Client'], kind: 'construct', entry: 'client' as const },
    { modules: RUN_MIGRATIONS_API.modules, path: RUN_MIGRATIONS_API.path, kind: 'call', entry: 'runMigrations' as const },
  ]);
  const locks = strings.some((s) => LOCK_SQL.test(s.text));
  // On one connection the run checks out (`await pool.connect()`, `getClient()`) and holds, the pool splits nothing.
  const checkedOut = locks && locksOnCheckedOutConnection(strings, context.sourceCode);
  // A pool only splits a lock that is taken; with none, the missing lock is the finding.
  if (locks && !checkedOut)
    for (const ref of refs)
      if (ref.entry === 'pool') report({ messageId: 'pool', node: ref.node, facts: { kind: 'pool', node: ref.node } });
  // A try-lock tested on its row (`if (!r.rows[0])`), which is always there: the run goes on without the lock.
  if (locks)
    for (const test of rowTestedTryLocks(calls, context.sourceCode))
      report({ messageId: 'rowTestedTryLock', node: test, facts: { kind: 'lock', node: test } });
  const usesRunMigrations = refs.some((r) => r.entry === 'runMigrations');
  const pinnedLock = checkedOut || (refs.some((r) => r.entry === 'client') && locks);
  const unpinnedLock = refs.some((r) => r.entry === 'pool') && locks;
  // `pg_advisory_xact_lock` inside the transaction that runs the migrations holds for the whole run.
  const transactionLock = () => locksInTransaction(strings, calls, context.sourceCode);
  const first = context.sourceCode.getFirstToken(program);
  // A file that only declares and exports (a helper in cmd/migrate/) is not the run itself.
  const runsSomething = program.body.some(runsAtTopLevel);
  // knex, node-pg-migrate, Prisma… serialise their own runs (`MIGRATOR_LOCKS`).
  const selfLocked = () =>
    migratorsLockThemselves(
      context,
      program,
      calls,
      strings.map((s) => s.text),
    );
  if (!usesRunMigrations && !pinnedLock && !unpinnedLock && runsSomething && first && !transactionLock() && !selfLocked()) {
    // On the call that runs the migrations, where the race happens; on the file's first token when none is in view.
    report({ messageId: 'noLock', node: program, loc: (runCall ?? first).loc, facts: { kind: 'lock', node: program } });
  }
}

/** 3a. Catch clauses and rejection handlers that neither rethrow nor exit non-zero. */
function reportSwallowedFailures(
  sourceCode: SourceCode,
  path: MigrationPath,
  catchClauses: readonly TSESTree.CatchClause[],
  handlerCalls: readonly TSESTree.CallExpression[],
  calls: readonly TSESTree.CallExpression[],
  report: Report,
): void {
  for (const clause of catchClauses) {
    // A helper's own catch (`catch { return false }` in "does this folder exist") is not the run's.
    if (!path.catches(clause)) continue;
    // Best-effort cleanup in `finally` (closing, unlocking) may swallow its own errors.
    const inFinally =
      sourceCode.getAncestors?.(clause).some((a, i, all) => a.type === 'TryStatement' && a.finalizer === all[i + 1]) ?? false;
    if (inFinally || exitsNonZero(clause.body)) continue;
    // `catch { return false }` whose callers exit 1 on `false` (`run().then((ok) => { if (!ok) process.exit(1) })`).
    if (returnsFailureToExit(clause, calls, sourceCode)) continue;
    const keyword = sourceCode.getFirstToken(clause);
    report({ messageId: 'swallowedFailure', node: clause, loc: keyword?.loc, facts: { kind: 'failure', node: clause } });
  }
  for (const call of handlerCalls) {
    if (!path.handles(call)) continue;
    const method = memberPropertyName(unwrapExpression(call.callee));
    const handler = method === 'then' ? call.arguments[1] : call.arguments[0];
    if (!handler) continue;
    const fn = functionDefinedHere(handler, sourceCode);
    const value = unwrapExpression(handler);
    const isConsole =
      value.type === 'MemberExpression' &&
      unwrapExpression(value.object).type === 'Identifier' &&
      (unwrapExpression(value.object) as TSESTree.Identifier).name === 'console';
    if (fn ? exitsNonZero(fn.body) : !isConsole) continue;
    report({ messageId: 'swallowedFailure', node: handler, facts: { kind: 'failure', node: handler } });
  }
}

/**
 * 3b. A top-level async call whose rejection nobody handles, in a file that swallows unhandled
 * rejections (`process.on('unhandledRejection', log)`): without such a handler Node ≥ 15 ends the
 * process with code 1 on the rejection (`--unhandled-rejections=throw`, the default), which is
 * what a migrate entrypoint must do.
 */
function reportFloatingMain(sourceCode: SourceCode, program: TSESTree.Program, report: Report): void {
  for (const statement of program.body) {
    if (statement.type !== 'ExpressionStatement') continue;
    let expression: TSESTree.Node = statement.expression;
    if (expression.type === 'UnaryExpression' && expression.operator === 'void') expression = expression.argument;
    const floating = floatingCall(expression, sourceCode);
    if (!floating) continue;
    const name = floating.callee.type === 'Identifier' ? `${floating.callee.name}()` : 'This async call';
    const whole = unwrapExpression(expression);
    report({
      messageId: 'floatingMain',
      data: { name },
      node: floating,
      facts: { kind: 'floating', node: floating },
      suggest: [
        {
          messageId: 'handleRejection',
          fix: (fixer) => [fixer.replaceText(statement, `${sourceCode.getText(whole)}${HANDLE_REJECTION};`)],
        },
      ],
    });
  }
}

export const migrateEntrypoint = createRule<MigrateEntrypointMessageIds, readonly unknown[], MigrateEntrypointFacts>({
  name: 'migrate-entrypoint',
  meta: {
    type: 'problem',
    docs: {
      description:
        'Require the migrate entrypoint to connect with POSTGRES_MIGRATE_URL, hold an advisory lock on one pinned connection, and exit non-zero on failure',
      recommended: true,
    },
    hasSuggestions: true,
    messages: {
      appUrl: `\`{{name}}\` is the app's database URL, which usually goes through PgBouncer. The migrate entrypoint connects with \`${MIGRATE_URL_VARIABLE}\`, directly to PostgreSQL.`,
      poolerUrl: `This URL points at a connection pooler: a session advisory lock through a transaction pooler does not hold. Connect with \`${MIGRATE_URL_VARIABLE}\`, directly to PostgreSQL.`,
      pool: 'A `Pool` runs each query on whichever connection is free, so the advisory lock is taken on one session and the migrations run (and the unlock happens) on others. Hold the lock on one pinned `Client` — or use `runMigrations`.',
      noLock:
        'This migrate entrypoint holds no advisory lock on a pinned connection: pods starting together race the same DDL. Run the migrator inside `runMigrations({ lockKey, migrate })`, or hold `pg_advisory_lock` on one `Client` for the whole run.',
      rowTestedTryLock:
        'This tests the row the try-lock query returns, not its answer: the row is there whether the lock was taken or not, so the run goes on without the lock while another one migrates. Test the column (`rows[0].pg_try_advisory_lock`).',
      swallowedFailure:
        'This failure handler neither rethrows nor exits non-zero: after a failed migration the pod would go on to start the server on an unmigrated schema. Log, then `process.exit(1)` or rethrow.',
      floatingMain:
        '`{{name}}` is neither awaited nor given a rejection handler: a failed migration must exit non-zero so the pod does not start the server. `await` it, or add `.catch()` that exits with 1.',
      handleRejection: 'Add `.catch()` that logs and exits with code 1.',
    },
    schema: [],
  },
  defaultOptions: [],
  detect(context, report) {
    if (!isMigrateEntrypointFile(context) || isMigrationAuthoringTool(context)) return {};
    const sourceCode = context.sourceCode;
    const strings: StringText[] = [];
    const catchClauses: TSESTree.CatchClause[] = [];
    const handlerCalls: TSESTree.CallExpression[] = [];
    const calls: TSESTree.CallExpression[] = [];
    const dynamicImports: TSESTree.ImportExpression[] = [];
    return {
      Literal(node: TSESTree.Literal) {
        if (typeof node.value === 'string') strings.push({ node, text: node.value });
      },
      TemplateLiteral(node: TSESTree.TemplateLiteral) {
        strings.push({ node, text: node.quasis.map((q) => q.value.cooked ?? '').join('') });
      },
      CatchClause(node: TSESTree.CatchClause) {
        catchClauses.push(node);
      },
      CallExpression(node: TSESTree.CallExpression) {
        calls.push(node);
        const method = memberPropertyName(unwrapExpression(node.callee));
        if ((method === 'catch' && node.arguments.length >= 1) || (method === 'then' && node.arguments.length >= 2))
          handlerCalls.push(node);
      },
      ImportExpression(node: TSESTree.ImportExpression) {
        dynamicImports.push(node);
      },
      'Program:exit'(program: TSESTree.Program) {
        // A script only named like one (a data copy, a backfill) writes no schema: nothing to lock or exit on.
        if (isEntrypointByNameOnly(context) && !runsMigrations(context, program, calls, strings)) return;
        // A re-exporting shim runs nothing. Found by its name alone, an operator's command class or a script that reads its own
        // flags (nopt, minimist, commander) is typed by hand, not run by every pod; a library module that only declares and
        // exports (a migration engine, a queue job class) runs nothing.
        if (onlyReExports(program, calls)) return;
        // A generator that reads and writes files (a types file built from the migration files) reaches no database.
        if (onlyTransformsFiles(program, calls, dynamicImports)) return;
        if (
          isEntrypointByNameOnly(context) &&
          (declaresCommandClass(program) || onlyDeclares(program) || parsesOwnCommandLine(program, calls))
        )
          return;
        // Found by its name alone, a module that starts nothing, outside a command folder, that a module of its package
        // imports or whose package is out of view (`lib/migrate.js` the server and a script both call) is a library: its
        // importers run it (`no-in-app-migrations` judges its run there).
        if (isMigrateHelperModule(context)) return;
        let notPostgres: boolean | undefined;
        // A MongoDB-protocol script (a copy to FerretDB, a MongoDB data upgrade): PostgreSQL's lock and URL do not apply.
        const mongoOnly = speaksOnlyMongoDb(program, calls, dynamicImports);
        const migratesNoPostgres = () => {
          if (notPostgres === undefined) {
            const runs = migratorRuns(
              context,
              program,
              calls,
              strings.map((s) => s.text),
            );
            notPostgres = runs.length > 0 && runs.every((run) => run.notPostgres === true);
          }
          return notPostgres;
        };
        const texts = strings.map((s) => s.text);
        const path = migrationPath(context, program, calls, texts);
        if (!mongoOnly) {
          reportUrls(context, strings, migratesNoPostgres, report);
          // A function-as-a-service handler that never reads its event runs the migration as the task it is invoked for, once.
          if (!path.runCall || !inEventlessTaskHandler(path.runCall, context.sourceCode))
            reportLock(context, program, strings, calls, path.runCall, report);
        }
        reportSwallowedFailures(sourceCode, path, catchClauses, handlerCalls, calls, report);
        if (swallowsUnhandledRejections(calls)) reportFloatingMain(sourceCode, program, report);
      },
    };
  },
});

export default migrateEntrypoint;
