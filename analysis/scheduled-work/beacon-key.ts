// A liveness beacon: a write to a key named for this service's liveness (`redis.set('svc:heartbeat',
// now)`, `db.kvSet('acme:worker:ping', new Date().toISOString(), 60)`). The key is written out,
// not named by its call, and every replica writes the same key with the same kind of value (the
// time it last saw itself alive): at two replicas the key says the same thing, nothing repeats.
import type { TSESTree } from '@typescript-eslint/utils';
import { BEACON_KEY_WORDS, KEY_WRITE_WORDS } from '../../src/knowledge/process-state.js';
import { unwrapExpression } from '../ast/unwrapped-expression.js';
import { calleeName } from './work-intent.js';
import { nameWords } from '../ast/name-words.js';

/** The text of a key written out: a string, or a template without expressions. */
function keyText(node: TSESTree.Node | undefined): string | undefined {
  const key = node && unwrapExpression(node);
  if (key?.type === 'Literal') return typeof key.value === 'string' ? key.value : undefined;
  if (key?.type === 'TemplateLiteral' && key.expressions.length === 0) return key.quasis[0]?.value.cooked ?? undefined;
  return undefined;
}

/** A write of a key written out whose last word says liveness (`set('…/ping', now)`, `hset('svc:heartbeat', …)`). */
export function writesBeaconKey(call: TSESTree.CallExpression): boolean {
  const name = calleeName(unwrapExpression(call.callee));
  if (name === undefined || !nameWords(name).some((w) => KEY_WRITE_WORDS.includes(w))) return false;
  const text = keyText(call.arguments[0]);
  return text !== undefined && BEACON_KEY_WORDS.includes(nameWords(text).at(-1) ?? '');
}
