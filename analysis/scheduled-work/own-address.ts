// A work that reads this host's own network address and uses it (`const ip = hostIpv4();`
// published in the payload, written as the key): each instance announcing or registering itself
// every N seconds, a service-registry heartbeat. Its writes are keyed to this machine, like data
// keyed by `os.hostname()`: per replica by design. An address only printed by a log line says nothing.
import type { TSESTree } from '@typescript-eslint/utils';
import { OWN_ADDRESS_CALLS, OWN_ADDRESS_WORDS } from '../../src/knowledge/own-addresses.js';
import { memberPropertyName } from '../ast/property-names.js';
import { receiverName } from '../ast/receiver-name.js';
import { nameWords } from '../ast/name-words.js';
import { usedBeyondLogLine } from './work-intent.js';

/** Whether `call` reads this host's own address (no argument) and the work uses the answer. */
export function readsOwnAddress(call: TSESTree.CallExpression): boolean {
  if (call.arguments.length > 0) return false;
  const callee = call.callee;
  const name = callee.type === 'Identifier' ? callee.name : memberPropertyName(callee);
  if (name === undefined) return false;
  const receiver = callee.type === 'MemberExpression' ? receiverName(callee.object) : undefined;
  const words = [...nameWords(name), ...(receiver === undefined ? [] : nameWords(receiver))];
  const named = OWN_ADDRESS_CALLS.includes(name) || words.some((w) => OWN_ADDRESS_WORDS.includes(w));
  return named && usedBeyondLogLine(call);
}
