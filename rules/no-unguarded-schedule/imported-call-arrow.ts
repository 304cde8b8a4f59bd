// A bare timer whose work is an arrow that only calls a function of another project module
// (`setInterval(() => pollInbox(), 10_000)`, `setInterval(() => closeIdleTickets(bot, ttl), ttl)`): the
// same schedule as handing that function by reference (`setInterval(pollInbox, 10_000)`, imported-work.ts),
// which runs that module's job every period as a declared job does. Only when that module is out of
// reach (a missing file, one file linted): in reach, the cross-file summary (analysis/modules, through
// `followCall`) says what the function does and the timer is judged by it. Out of reach, the name decides:
// a job's verb or a word for due or waiting items (src/knowledge/due-rows.ts: `pollInbox`,
// `drainPendingTasks`, `handleStaleOrders`), never a name for this process's own work (its liveness, its
// cache, a check for a newer release of the program). Not when the arrow does anything else (a log line, a
// second call, a condition), when the callee is a method of an imported object (`registry.delete(key)`),
// when the function is a value a call made (`const { drain } = createProcessor(…)`), or when it is handed
// a structure this file keeps in memory.
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { DUE_ROW_WORDS, JOB_VERBS, WAITED_WORDS } from '../../src/knowledge/due-rows.js';
import { AGE_ADJECTIVES } from '../../src/knowledge/per-replica.js';
import { RELEASE_CHECK_WORDS } from '../../src/knowledge/process-state.js';
import { nameWords } from '../../analysis/ast/name-words.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import type { EffectsOptions } from '../../analysis/scheduled-work/external-effects.js';
import { importedProjectWorkCalls } from '../../analysis/scheduled-work/imported-work-call.js';
import { madeByCall } from '../../analysis/scheduled-work/imported-work.js';
import { isInMemoryValue, valueOf } from '../../analysis/scheduled-work/in-memory-values.js';
import { verbOf } from '../../analysis/scheduled-work/name-verbs.js';
import type { ScheduledWork } from '../../analysis/scheduled-work/scheduled-work.js';

/** `checkForNewRelease`, `checkLatestVersion`: `check` and only words of a release check. */
function checksForNewRelease(name: string): boolean {
  const [verb, ...rest] = nameWords(name);
  return verb === 'check' && rest.length > 0 && rest.every((w) => RELEASE_CHECK_WORDS.includes(w));
}

/** `pollInbox`, `drainPendingTasks`, `handleStaleOrders`: a name that says the function works through shared items. */
function namesJob(name: string): boolean {
  const words = nameWords(name);
  const waited = (w: string) => DUE_ROW_WORDS.includes(w) || AGE_ADJECTIVES.includes(w) || WAITED_WORDS.includes(w);
  return JOB_VERBS.includes(verbOf(words) ?? '') || words.slice(1).some(waited);
}

/** Whether the timer's work is an arrow of one statement calling one imported project function out of reach (see the file's head). */
export function runsImportedCallInArrow(
  sourceCode: SourceCode,
  work: ScheduledWork,
  effectsOptions: EffectsOptions,
  namesThisProcessWork: (name: string) => boolean,
): boolean {
  const fn = work.resolved?.fn;
  if (!work.entry.bareTimer || work.pollLoop || work.loopBody || fn?.type !== 'ArrowFunctionExpression' || fn.params.length > 0)
    return false;
  if (fn.body.type === 'BlockStatement' && fn.body.body.length !== 1) return false;
  const calls = importedProjectWorkCalls(sourceCode, fn);
  const call = calls?.length === 1 ? calls[0]! : undefined;
  const callee = call && unwrapExpression(call.callee);
  if (!call || callee?.type !== 'Identifier' || effectsOptions.followCall?.(call) !== undefined) return false;
  const name = callee.name;
  if (!namesJob(name) || namesThisProcessWork(name) || checksForNewRelease(name) || madeByCall(sourceCode, callee)) return false;
  const inMemory = (argument: TSESTree.Node) =>
    argument.type === 'Identifier' && isInMemoryValue(sourceCode, valueOf(sourceCode, argument));
  return !call.arguments.some(inMemory);
}
