// Session advisory locks belong to a server connection. Behind PgBouncer in transaction pooling
// mode each statement may run on a different server connection, so the lock and its unlock part
// ways: the lock leaks (the job silently stops until the connection is recycled) or another
// replica lands on the same backend and "acquires" it too. Only the migrate entrypoint, which
// connects directly to PostgreSQL on one pinned connection, may use them.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { createRule } from './utils/create-rule.js';
import { codeTextOf } from '../analysis/source/code-text.js';
import { sessionAdvisoryLockCalls, sessionAdvisoryLockFunction } from '../src/knowledge/sql.js';
import { isEntrypointByNameOnly, isMigrateEntrypointFile, outsideOneOffCommands } from './migrations/exempt-file.js';
import { startsNothing } from '../analysis/ast/only-declares.js';
import { isLintedTestCode } from '../analysis/source/test-code.js';
import { LibraryLocks } from './no-session-advisory-lock/library-locks.js';
import { namesSessionLockLibrary, SESSION_LOCK_LIBRARIES } from '../src/knowledge/lock-libraries.js';
import { enclosingFunction, type FunctionNode } from '../analysis/sql/enclosing-function.js';
import { sqlUsesListener } from '../analysis/sql/sql-text.js';
import { TEXT_COMPARISONS, TEXT_SEARCH_METHODS } from '../src/knowledge/text-searches.js';
import {
  isBetweenBeginAndCommit,
  isTransactionCallbackClient,
  transactionControlOf,
  type TransactionControl,
} from '../analysis/sql/transaction-controls.js';

export type NoSessionAdvisoryLockMessageIds = 'sessionLock' | 'sessionUnlock' | 'libraryLock' | 'useXactLock';

/** What the `advisory-lock-to-lease` codemod needs. */
export interface NoSessionAdvisoryLockFacts {
  /** The JS call or tagged template that sends the SQL (`undefined` for SQL text not sent by a known call). */
  lockCall: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression | undefined;
  /** The expression holding the SQL (literal, template, concatenation; the constant's initializer when passed by name). */
  sqlNode: TSESTree.Node;
  /** The SQL function, lower-cased (`pg_try_advisory_lock`). */
  functionName: string;
  /** `try` (pg_try_…), `lock` (blocking) or `unlock`. */
  kind: 'try' | 'lock' | 'unlock';
  shared: boolean;
  /** The transaction-level function to use instead (`undefined` for unlocks). */
  xactFunctionName: string | undefined;
  /** Source range of the function name inside the literal, when it is written verbatim there. */
  functionNameRange: [number, number] | undefined;
  /** The client expression the SQL is sent on (`pool`, `this.db`, `sql`), and its text. */
  client: TSESTree.Expression | undefined;
  clientText: string | undefined;
  /** Sent between BEGIN and COMMIT on the same client in the same function, or inside a transaction callback. */
  inTransaction: boolean;
  /** The function the call sits in (`undefined` at module level). */
  enclosingFunction: FunctionNode | undefined;
  /** For a lock taken through a lock library's mutex (`mutex.tryLock()`): the library's package. */
  library?: string;
}

/**
 * Lock libraries whose module name does not say `advisory`, each by six characters from its first hyphen (`-mutex`
 * of `pg-mutex-lock`): `includes` looks for a word by its first character, and a hyphen is rarer in code than any
 * letter (`x`, of `export` and `index`, half as rare: `x-lock` cost twice `-mutex` over the corpus's texts).
 */
const LIBRARY_STEMS = SESSION_LOCK_LIBRARIES.filter((library) => !library.module.includes('visory')).map(({ module }) => {
  const from = Math.max(0, module.indexOf('-'));
  return module.slice(from, from + 6);
});

/**
 * Whether a text mentions advisory locks: most files never do, and are skipped without walking their strings
 * (`includes` is cheaper than a case-insensitive regular expression on big files). A lock library's module
 * (`pg-mutex-lock`) may be the file's only mention of a lock.
 */
function mentionsAdvisoryLock(text: string): boolean {
  return (
    text.includes('visory') ||
    text.includes('VISORY') ||
    (LIBRARY_STEMS.some((stem) => text.includes(stem)) && namesSessionLockLibrary(text))
  );
}

/**
 * A literal looked for in a text rather than sent: a text search's argument (`output.includes(…)`,
 * `.startsWith(…)`), a side of an equality, a `case` of a switch, a `RegExp`'s source. A retry
 * script that matches an error message naming the function takes no lock.
 */
function isSearchedFor(node: TSESTree.Literal): boolean {
  const parent = node.parent;
  switch (parent.type) {
    case 'CallExpression':
      return (
        parent.arguments[0] === node &&
        parent.callee.type === 'MemberExpression' &&
        parent.callee.property.type === 'Identifier' &&
        TEXT_SEARCH_METHODS.has(parent.callee.property.name)
      );
    case 'NewExpression':
      return parent.callee.type === 'Identifier' && parent.callee.name === 'RegExp';
    case 'BinaryExpression':
      return TEXT_COMPARISONS.has(parent.operator);
    case 'SwitchCase':
      return parent.test === node;
    default:
      return false;
  }
}

type Report = Parameters<
  Parameters<typeof createRule<NoSessionAdvisoryLockMessageIds, readonly unknown[], NoSessionAdvisoryLockFacts>>[0]['detect']
>[1];

/** A lock taken through a lock library's mutex (`mutex.tryLock()`): the library runs the session lock. */
function reportLibraryLock(libraryLocks: LibraryLocks, call: TSESTree.CallExpression, report: Report): void {
  const found = libraryLocks.lockOf(call);
  const fn = found && sessionAdvisoryLockFunction(found.functionName);
  if (!found || !fn) return;
  report({
    messageId: 'libraryLock',
    data: { method: found.method, library: found.library.module, name: found.functionName },
    node: found.name,
    facts: {
      lockCall: call,
      sqlNode: call,
      functionName: found.functionName,
      kind: fn.kind,
      shared: fn.shared,
      xactFunctionName: fn.xact,
      functionNameRange: undefined,
      client: undefined,
      clientText: undefined,
      inTransaction: false,
      enclosingFunction: enclosingFunction(call),
      library: found.library.module,
    },
  });
}

/** `report`, dropping a one-off script's unlocks (they race nothing); a lock it takes keeps out a second run of it, which the session lock's faults let in. */
function locksOutsideOneOffs(context: Parameters<typeof outsideOneOffCommands>[0], report: Report): Report {
  const oneOff = outsideOneOffCommands(context, report);
  return (descriptor) => (descriptor.facts?.kind === 'unlock' ? oneOff : report)(descriptor);
}

export const noSessionAdvisoryLock = createRule<NoSessionAdvisoryLockMessageIds, readonly unknown[], NoSessionAdvisoryLockFacts>({
  name: 'no-session-advisory-lock',
  meta: {
    type: 'problem',
    docs: {
      description:
        'Disallow session-level PostgreSQL advisory locks, which leak through a connection pool and are shared through PgBouncer transaction pooling',
      recommended: true,
    },
    hasSuggestions: true,
    messages: {
      sessionLock:
        "`{{name}}` takes a session advisory lock: it belongs to the server connection that ran it until that connection unlocks or closes. Through a pool (`pool.query`, an ORM's raw query) the unlock can run on another pooled connection, return false and leave the lock held: the job stops on every replica. Through PgBouncer transaction pooling another replica can also run on the holding connection and take the lock again (it is re-entrant): two replicas run at once. On a pinned client it holds only while that connection lives: a dropped connection frees it mid-job. Use a lease (`runExclusive` / `claimPeriod` from replica-guard), or `{{xact}}` inside a transaction.",
      sessionUnlock:
        '`{{name}}` releases a session advisory lock, which only the server connection that took it can release. Through a pool or PgBouncer transaction pooling it can run on another connection, return false and leave the lock held: the job stops on every replica. Use a lease (`runExclusive` from replica-guard), or `pg_advisory_xact_lock` inside a transaction (released at COMMIT, no unlock needed).',
      libraryLock:
        "`{{method}}` of `{{library}}` takes a session advisory lock (`{{name}}`) on the library's own connection: through PgBouncer transaction pooling its unlock can run on another server connection, return false and leave the lock held (the job stops on every replica), or another replica can land on the holding connection and take it again; and if that connection drops mid-job the server frees the lock while the work goes on. Use a lease (`runExclusive` / `claimPeriod` from replica-guard).",
      useXactLock: 'Use `{{xact}}`: this call is inside a transaction, and the lock is released at COMMIT.',
    },
    schema: [],
  },
  defaultOptions: [],
  detect(context, reportFinding) {
    const sourceCode = context.sourceCode;
    // The raw text first: comments are set aside only in the few files that mention the word at all.
    if (!mentionsAdvisoryLock(sourceCode.text) || !mentionsAdvisoryLock(codeTextOf(sourceCode))) return {};
    // The migrate entrypoint holds its lock on one pinned connection for its one run. A module only
    // named like it that declares and exports (a migration engine's `migrate.ts`) is a library:
    // its lock helpers run wherever they are called.
    if (isMigrateEntrypointFile(context) && !(isEntrypointByNameOnly(context) && startsNothing(sourceCode.ast))) return {};
    // Test code runs in no replica: a test that holds the lock to play a second instance is not a leak.
    if (isLintedTestCode(context)) return {};
    // A one-off command an operator runs by hand (a script that releases a stuck lock) is one process, once: no replica races it.
    const report = locksOutsideOneOffs(context, reportFinding);
    const controls: TransactionControl[] = [];
    const collectControl = (node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression): void => {
      const control = transactionControlOf(node, sourceCode);
      if (control) controls.push(control);
    };

    const sql = sqlUsesListener(
      context,
      (use) => {
        for (const lock of sessionAdvisoryLockCalls(use.parsed)) {
          const { token, fn, name } = lock;
          const clientText = use.client ? sourceCode.getText(use.client) : undefined;
          const inTransaction =
            use.call !== undefined &&
            use.client !== undefined &&
            (isBetweenBeginAndCommit(use.call, clientText as string, controls) || isTransactionCallbackClient(use.client, sourceCode));
          const nameRange = token.kind === 'word' ? use.sql.rangeOf(token.start, token.end) : undefined;
          const suggest: TSESLint.SuggestionReportDescriptor<NoSessionAdvisoryLockMessageIds>[] = [];
          if (inTransaction && fn.xact && nameRange) {
            const xact = fn.xact;
            suggest.push({ messageId: 'useXactLock', data: { xact }, fix: (fixer) => fixer.replaceTextRange(nameRange, xact) });
          }
          report({
            messageId: fn.kind === 'unlock' ? 'sessionUnlock' : 'sessionLock',
            data: { name, xact: fn.xact ?? 'pg_advisory_xact_lock' },
            node: use.sql.node,
            loc: use.sql.locOf(token.start, token.end),
            facts: {
              lockCall: use.call,
              sqlNode: use.sql.node,
              functionName: name,
              kind: fn.kind,
              shared: fn.shared,
              xactFunctionName: fn.xact,
              functionNameRange: nameRange,
              client: use.client,
              clientText,
              inTransaction,
              enclosingFunction: use.call ? enclosingFunction(use.call) : enclosingFunction(use.sql.node),
            },
            ...(suggest.length > 0 ? { suggest } : {}),
          });
        }
      },
      { mentions: /advisory/i, expressions: true },
    );
    /**
     * The function's name alone, the SQL built around it elsewhere: a query builder's function
     * call (Kysely `eb.fn('pg_try_advisory_lock', …)`), a name picked by a condition or kept in a
     * constant and put into the SQL text.
     */
    const bareName = (node: TSESTree.Literal): void => {
      if (typeof node.value !== 'string' || node.value.length > 40 || !/advisory/i.test(node.value)) return;
      // A result column read back (`row['pg_try_advisory_lock']`), a key or a type names no call.
      const parent = node.parent;
      if (parent.type === 'MemberExpression' || parent.type === 'TSLiteralType' || (parent.type === 'Property' && parent.key === node))
        return;
      if (parent.type === 'TSPropertySignature' || isSearchedFor(node)) return;
      const name = node.value.trim().toLowerCase();
      const fn = sessionAdvisoryLockFunction(name);
      if (!fn) return;
      const start = node.range[0] + 1;
      report({
        messageId: fn.kind === 'unlock' ? 'sessionUnlock' : 'sessionLock',
        data: { name, xact: fn.xact ?? 'pg_advisory_xact_lock' },
        node,
        facts: {
          lockCall: undefined,
          sqlNode: node,
          functionName: name,
          kind: fn.kind,
          shared: fn.shared,
          xactFunctionName: fn.xact,
          functionNameRange: node.raw.slice(1, -1) === name ? [start, start + name.length] : undefined,
          client: undefined,
          clientText: undefined,
          inTransaction: false,
          enclosingFunction: enclosingFunction(node),
        },
      });
    };
    // Lock libraries whose mutexes take session locks with SQL of their own (`advisory-lock`).
    const libraryLocks = new LibraryLocks(sourceCode);
    return {
      ...sql,
      Literal(node) {
        sql.Literal?.(node);
        bareName(node);
      },
      CallExpression(node) {
        collectControl(node);
        sql.CallExpression?.(node);
        if (libraryLocks.any) reportLibraryLock(libraryLocks, node, report);
      },
      TaggedTemplateExpression(node) {
        collectControl(node);
        sql.TaggedTemplateExpression?.(node);
      },
    };
  },
});

export default noSessionAdvisoryLock;
