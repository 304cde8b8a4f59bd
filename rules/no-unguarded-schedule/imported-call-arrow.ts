// A bare timer whose work is an arrow that only calls a function of another project module
// (`setInterval(() => pollInbox(), 10_000)`, `setInterval(() => closeIdleTickets(bot, ttl), ttl)`): the
// same schedule as handing that function by reference (`setInterval(pollInbox, 10_000)`, imported-work.ts),
// which runs that module's job every period as a declared job does. Not when the arrow does anything
// else (a log line, a second call, a condition), when the function is a value a call made
// (`const { drain } = createProcessor(…)`), when the call is named for this process's own work (its
// liveness, its cache, a check for a newer release of the program), or when it is handed a structure
// this file keeps in memory.
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { RELEASE_CHECK_WORDS } from '../../src/knowledge/process-state.js';
import { nameWords } from '../../analysis/ast/name-words.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { importedProjectWorkCalls } from '../../analysis/scheduled-work/imported-work-call.js';
import { madeByCall } from '../../analysis/scheduled-work/imported-work.js';
import { isInMemoryValue, valueOf } from '../../analysis/scheduled-work/in-memory-values.js';
import type { ScheduledWork } from '../../analysis/scheduled-work/scheduled-work.js';
import { calleeName } from '../../analysis/scheduled-work/work-intent.js';

/** `checkForUpdates`, `checkVersion`: `check` and only words of a release check. */
function checksForNewRelease(name: string): boolean {
  const [verb, ...rest] = nameWords(name);
  return verb === 'check' && rest.length > 0 && rest.every((w) => RELEASE_CHECK_WORDS.includes(w));
}

/** Whether the timer's work is an arrow of one statement calling one imported project function (see the file's head). */
export function runsImportedCallInArrow(
  sourceCode: SourceCode,
  work: ScheduledWork,
  namesThisProcessWork: (name: string) => boolean,
): boolean {
  const fn = work.resolved?.fn;
  if (!work.entry.bareTimer || work.pollLoop || work.loopBody || fn?.type !== 'ArrowFunctionExpression' || fn.params.length > 0)
    return false;
  if (fn.body.type === 'BlockStatement' && fn.body.body.length !== 1) return false;
  const calls = importedProjectWorkCalls(sourceCode, fn);
  const call = calls?.length === 1 ? calls[0]! : undefined;
  const callee = call && unwrapExpression(call.callee);
  const name = callee && calleeName(callee);
  if (!call || name === undefined || namesThisProcessWork(name) || checksForNewRelease(name)) return false;
  const root = callee?.type === 'MemberExpression' ? unwrapExpression(callee.object) : callee;
  if (root?.type === 'Identifier' && madeByCall(sourceCode, root)) return false;
  const inMemory = (argument: TSESTree.Node) =>
    argument.type === 'Identifier' && isInMemoryValue(sourceCode, valueOf(sourceCode, argument));
  return !call.arguments.some(inMemory);
}
