// A call that sets a chat bot's own presence: `client.user.setPresence({ activities })`,
// `this.bot.user.setActivity('…')`. What the bot shows is its connection's, set by each process
// for itself — a per-replica call, like a liveness post. Read by work-intent.ts; the same
// method on another receiver (`member.user.setActivity`, a model's `user.setPresence`) is not this.
import type { TSESTree } from '@typescript-eslint/utils';
import { CLIENT_OWN_USER, CLIENT_PRESENCE_METHODS, CLIENT_RECEIVER_NAMES } from '../../src/knowledge/client-timers.js';
import { memberPropertyName } from '../ast/property-names.js';
import { receiverName } from '../ast/receiver-name.js';
import { unwrapExpression } from '../ast/unwrapped-expression.js';

/** Whether `call` is `<client>.user.setPresence(…)` / `.setActivity(…)` on a receiver named for the bot's client. */
export function setsClientPresence(call: TSESTree.CallExpression): boolean {
  const callee = unwrapExpression(call.callee);
  if (callee.type !== 'MemberExpression' || !CLIENT_PRESENCE_METHODS.includes(memberPropertyName(callee) ?? '')) return false;
  const user = unwrapExpression(callee.object);
  if (user.type !== 'MemberExpression' || memberPropertyName(user) !== CLIENT_OWN_USER) return false;
  const client = unwrapExpression(user.object);
  return client.type !== 'CallExpression' && CLIENT_RECEIVER_NAMES.includes(receiverName(client) ?? '');
}
