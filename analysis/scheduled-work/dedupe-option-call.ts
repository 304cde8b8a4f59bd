// A call handed an options object with a dedupe key (`queue.add(type, id, data, { dedupKey })`,
// `boss.send(name, data, { singletonKey })`): whatever the queue, its key makes the enqueue one job
// however many replicas make it. The key covers that call alone; what else the work writes still counts.
import type { TSESTree } from '@typescript-eslint/utils';
import { propertyKeyName } from '../ast/property-names.js';
import { DEDUPE_OPTION_KEYS } from '../../src/knowledge/per-replica.js';

/** Whether an object literal among `call`'s arguments names a dedupe option key. */
export function handsDedupeOption(call: TSESTree.CallExpression): boolean {
  return call.arguments.some(
    (argument) =>
      argument.type === 'ObjectExpression' &&
      argument.properties.some((p) => p.type === 'Property' && DEDUPE_OPTION_KEYS.includes(propertyKeyName(p) ?? '')),
  );
}
