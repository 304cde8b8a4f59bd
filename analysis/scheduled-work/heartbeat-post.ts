// A write over HTTP whose address ends in a heartbeat path (`POST …/workers/${id}/heartbeat`,
// `fetch(url, { method: 'PUT' })` with `const url = \`${base}/agents/${me}/keepalive\``): this
// process telling a backend it is alive — each replica's own report, not a shared effect. The
// address is read where the call writes it, or from a `const` of an enclosing block.
import type { TSESTree } from '@typescript-eslint/utils';
import { BEACON_KEY_WORDS } from '../../src/knowledge/process-state.js';
import { nameWords } from '../ast/name-words.js';
import { unwrapExpression } from '../ast/unwrapped-expression.js';

/** The text of a string or template, its placeholders left out. */
function literalText(node: TSESTree.Node | null | undefined): string | undefined {
  const value = node && unwrapExpression(node);
  if (value?.type === 'Literal' && typeof value.value === 'string') return value.value;
  if (value?.type === 'TemplateLiteral') return value.quasis.map((q) => q.value.cooked ?? '').join('');
  return undefined;
}

/** The string a `const` of an enclosing block holds (`const url = \`…/heartbeat\``), when `name` is one. */
function constantText(from: TSESTree.Node, name: string): string | undefined {
  for (let node = from.parent; node; node = node.parent) {
    if (node.type !== 'BlockStatement' && node.type !== 'Program') continue;
    for (const statement of node.body) {
      if (statement.type !== 'VariableDeclaration' || statement.kind !== 'const') continue;
      const declarator = statement.declarations.find((d) => d.id.type === 'Identifier' && d.id.name === name);
      if (declarator) return literalText(declarator.init);
    }
  }
  return undefined;
}

/** Whether the call's address (its first argument) ends in a heartbeat path (`/heartbeat`, `/keep-alive?x=1`). */
export function postsHeartbeat(call: TSESTree.CallExpression): boolean {
  const address = call.arguments[0];
  if (!address || address.type === 'SpreadElement') return false;
  const value = unwrapExpression(address);
  const text = value.type === 'Identifier' ? constantText(call, value.name) : literalText(value);
  const last = text?.split(/[?#]/)[0]!.split('/').filter(Boolean).at(-1);
  // The last word of the last segment, as a liveness beacon's key is read (beacon-key.ts): `heartbeat`, `keep-alive`, `ping`.
  return last !== undefined && BEACON_KEY_WORDS.includes(nameWords(last).at(-1) ?? '');
}
