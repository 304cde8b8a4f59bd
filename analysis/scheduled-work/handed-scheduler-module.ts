// A scheduler module handed in as a parameter (src/knowledge/handed-schedulers.ts): `function
// startSweeps(cron) { cron.schedule('0 * * * *', async () => { … }) }`, the server calling it with the
// module it imported. The file imports no scheduler, so reference tracking never reaches the call: it is
// found by the text it writes, and taken for the scheduler only when the receiver is a parameter named
// for it and the schedule is a cron expression written out. Then it is judged as that scheduler's call
// (scheduled-work.ts builds its work).
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { HANDED_CRON_CALL, HANDED_SCHEDULER_MODULES, isCronExpressionText } from '../../src/knowledge/handed-schedulers.js';
import { SCHEDULERS } from '../../src/knowledge/schedulers.js';
import { nodeAt } from '../ast/node-at.js';
import { nameWords } from '../ast/name-words.js';
import { memberPropertyName } from '../ast/property-names.js';
import { scopeVariable } from '../ast/scope-variable.js';
import type { SchedulerEntry } from '../../src/knowledge/schedulers.js';

const CANDIDATES = new RegExp(HANDED_CRON_CALL.source, 'g');

/** The literal string an argument writes out. */
function literalText(node: TSESTree.Node | undefined): string | undefined {
  if (node?.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node?.type === 'TemplateLiteral' && node.expressions.length === 0) return node.quasis[0]?.value.cooked ?? undefined;
  return undefined;
}

/** `cron.schedule('0 * * * *', fn)` on a parameter named for the scheduler: the call, and the scheduler it is. */
function handedCall(sourceCode: SourceCode, receiver: TSESTree.Node | null) {
  const member = receiver?.parent;
  const call = member?.parent;
  if (receiver?.type !== 'Identifier' || member?.type !== 'MemberExpression' || member.object !== receiver) return undefined;
  if (call?.type !== 'CallExpression' || call.callee !== member) return undefined;
  const method = memberPropertyName(member);
  const handed = HANDED_SCHEDULER_MODULES.find((m) => m.method === method && nameWords(receiver.name).includes(m.nameWord));
  const expression = literalText(call.arguments[0]);
  if (!handed || expression === undefined || !isCronExpressionText(expression)) return undefined;
  const defs = scopeVariable(sourceCode, receiver)?.defs ?? [];
  if (defs.length !== 1 || defs[0]!.type !== 'Parameter') return undefined;
  const entry = SCHEDULERS.find((e) => e.id === handed.scheduler);
  return entry && { call, entry };
}

/** Every call of a scheduler module the file is handed as a parameter, with the scheduler it is. */
export function handedSchedulerCalls(sourceCode: SourceCode): Array<{ call: TSESTree.CallExpression; entry: SchedulerEntry }> {
  if (!HANDED_CRON_CALL.test(sourceCode.text)) return [];
  const out: Array<{ call: TSESTree.CallExpression; entry: SchedulerEntry }> = [];
  for (const match of sourceCode.text.matchAll(CANDIDATES)) {
    const found = handedCall(sourceCode, nodeAt(sourceCode, match.index));
    if (found) out.push(found);
  }
  return out;
}
