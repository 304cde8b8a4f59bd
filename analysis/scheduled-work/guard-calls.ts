// Every call in the file to a replica guard — replica-guard's own (however imported) and the
// in-house ones named in settings — with how it guards.
import type { TSESTree } from '@typescript-eslint/utils';
import type { DetectContext } from '../detect-context.js';
import { GUARDS, guardFromSetting, type GuardKind } from '../../src/knowledge/guards.js';
import { importedReferences, type TrackedApi } from '../imports/imported-references.js';
import type { GuardFunctionSetting } from '../settings.js';

/** `custom`: named in settings; it may be a check or a wrapper, so it counts as either. */
export type GuardCallKind = GuardKind | 'custom';

export type GuardCalls = ReadonlyMap<TSESTree.CallExpression, GuardCallKind>;

/** `a.b.c` for an identifier or a non-computed member chain, else undefined. */
export function calleePath(node: TSESTree.Node): string | undefined {
  if (node.type === 'Identifier') return node.name;
  if (node.type === 'MemberExpression' && !node.computed && node.property.type === 'Identifier') {
    const object = node.object.type === 'ThisExpression' ? 'this' : calleePath(node.object);
    return object === undefined ? undefined : `${object}.${node.property.name}`;
  }
  return undefined;
}

export function collectGuardCalls(
  context: DetectContext,
  extraGuards: readonly GuardFunctionSetting[],
): { calls: GuardCalls; byName: (call: TSESTree.CallExpression) => GuardCallKind | undefined } {
  const apis: TrackedApi<GuardCallKind>[] = GUARDS.map((g) => ({ modules: [g.module ?? null], path: g.path, kind: 'call', entry: g.kind }));
  const unscoped = new Set<string>();
  for (const setting of extraGuards) {
    const guard = guardFromSetting(setting);
    if (guard.module === undefined) unscoped.add(setting.name);
    else apis.push({ modules: [guard.module], path: guard.path, kind: 'call', entry: 'custom' });
  }
  const calls = new Map<TSESTree.CallExpression, GuardCallKind>();
  for (const ref of importedReferences(context, apis)) {
    if (ref.node.type === 'CallExpression') calls.set(ref.node, ref.entry);
  }
  // Guards named without a module match by the callee as written (`withLease`, `this.jobs.guard`).
  const byName = (call: TSESTree.CallExpression): GuardCallKind | undefined => {
    const known = calls.get(call);
    if (known) return known;
    if (unscoped.size === 0) return undefined;
    const path = calleePath(call.callee);
    if (path === undefined) return undefined;
    if (unscoped.has(path) || unscoped.has(path.replace(/^this\./, ''))) return 'custom';
    return undefined;
  };
  return { calls, byName };
}
