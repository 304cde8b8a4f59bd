// A chat client setting its own account's presence: `client.user.setPresence({ activities })`,
// `this.bot.user.setActivity('…')`. The presence belongs to this process's connection (each
// replica, each shard logs in with its own), so a timer rotating it repeats nothing shared.
// A method of another object (`channel.setTopic`, `guild.members.me.setNickname`) is not one.
import type { TSESTree } from '@typescript-eslint/utils';
import { OWN_ACCOUNT_PROPERTY, OWN_PRESENCE_METHODS } from '../../src/knowledge/host-local.js';
import { memberPropertyName } from '../ast/property-names.js';
import { unwrapExpression } from '../ast/unwrapped-expression.js';

/** Whether `callee` is `<client>.user.setPresence` (or another presence method of the own account). */
export function setsOwnPresence(callee: TSESTree.MemberExpression): boolean {
  if (!OWN_PRESENCE_METHODS.includes(memberPropertyName(callee) ?? '')) return false;
  const account = unwrapExpression(callee.object);
  return account.type === 'MemberExpression' && memberPropertyName(account) === OWN_ACCOUNT_PROPERTY;
}
