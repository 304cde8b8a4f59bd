// Whether a timer belongs to one connection, request or call rather than to the process: its
// handle is kept in a variable of the function that started it (a connection handler, a method
// run per call — one that is handed what it serves, unlike a `main()`), and it is cleared when that owner ends — in a `close`/`end`/`abort` listener, in
// a `finally`, by its own callback once its one caller is served — or it is filed under the
// call's key (`this.pollers.set(callId, { interval })`). Such a timer runs once per owner, not
// once per replica: no side effect repeats across replicas. The vocabulary is data in
// src/knowledge/schedulers.ts (TIMER_LIFETIME).
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { TIMER_LIFETIME } from '../../src/knowledge/schedulers.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { isFunctionLike, type FunctionLike } from '../../analysis/scheduled-work/work-function.js';

type Variable = ReturnType<SourceCode['getDeclaredVariables']>[number];

const includes = (list: readonly string[], name: string | undefined): boolean => name !== undefined && list.includes(name);

/** The string a node spells, or undefined. */
function text(node: TSESTree.Node | undefined): string | undefined {
  return node?.type === 'Literal' && typeof node.value === 'string' ? node.value : undefined;
}

/** `ws.on('close', fn)`, `signal.addEventListener('abort', fn)`, `socket.onclose = fn`: `fn` runs when its owner ends. */
function runsWhenOwnerEnds(fn: FunctionLike): boolean {
  const parent = fn.parent;
  if (parent?.type === 'CallExpression' && parent.arguments.some((a) => a === fn) && parent.callee.type === 'MemberExpression') {
    const receiver = parent.callee.object;
    if (receiver.type === 'Identifier' && includes(TIMER_LIFETIME.processReceivers, receiver.name)) return false;
    return (
      includes(TIMER_LIFETIME.listenerMethods, memberPropertyName(parent.callee)) &&
      includes(TIMER_LIFETIME.endEvents, text(parent.arguments[0]))
    );
  }
  if (parent?.type === 'AssignmentExpression' && parent.right === fn) {
    const name = memberPropertyName(parent.left);
    return name !== undefined && name.startsWith('on') && includes(TIMER_LIFETIME.endEvents, name.slice(2));
  }
  return false;
}

/** The variable a local closure is bound to (`const stop = () => clearInterval(t)`). */
function closureVariable(sourceCode: SourceCode, fn: FunctionLike): Variable | undefined {
  if (fn.type === 'FunctionDeclaration') return sourceCode.getDeclaredVariables(fn)[0];
  return fn.parent?.type === 'VariableDeclarator' ? sourceCode.getDeclaredVariables(fn.parent)[0] : undefined;
}

/**
 * Whether the clear at `node` runs when the owner ends, walking up to `owner` (the function that
 * started the timer): a `finally`, an end listener, the timer's own work, or a local closure
 * (`stopTimeoutCheck`) called from one of those (one level).
 */
function clearedAtOwnerEnd(
  sourceCode: SourceCode,
  node: TSESTree.Node,
  owner: FunctionLike,
  work: FunctionLike | undefined,
  hops = 0,
): boolean {
  let child: TSESTree.Node = node;
  for (let current = node.parent; current && child !== owner; child = current, current = current.parent) {
    if (current.type === 'TryStatement' && current.finalizer === child) return true;
    if (!isFunctionLike(child)) continue;
    if (child === work || runsWhenOwnerEnds(child)) return true;
    const closure = hops === 0 ? closureVariable(sourceCode, child) : undefined;
    return (closure?.references ?? []).some(
      (r) =>
        r.identifier.parent?.type === 'CallExpression' &&
        r.identifier.parent.callee === r.identifier &&
        clearedAtOwnerEnd(sourceCode, r.identifier, owner, work, 1),
    );
  }
  return false;
}

/** `clearInterval(handle)`. */
function isClearOf(node: TSESTree.Node): boolean {
  const call = node.parent;
  if (call?.type !== 'CallExpression' || call.arguments[0] !== node) return false;
  const name = call.callee.type === 'Identifier' ? call.callee.name : memberPropertyName(call.callee);
  return includes(TIMER_LIFETIME.clearers, name);
}

/** `map.set(callId, handle)`, `this.pollers.set(callId, { interval: handle })` with `callId` a parameter of the owner. */
function filedUnderCallKey(reference: TSESTree.Node, owner: FunctionLike): boolean {
  let value: TSESTree.Node = reference;
  if (value.parent?.type === 'Property' && value.parent.value === value && value.parent.parent?.type === 'ObjectExpression')
    value = value.parent.parent;
  const call = value.parent;
  if (call?.type !== 'CallExpression' || call.arguments[1] !== value || memberPropertyName(call.callee) !== 'set') return false;
  const key = call.arguments[0];
  return key?.type === 'Identifier' && owner.params.some((p) => p.type === 'Identifier' && p.name === key.name);
}

/** The function whose local variable holds the timer's handle, and that variable. */
function localHandle(sourceCode: SourceCode, schedule: TSESTree.Node): { owner: FunctionLike; variable: Variable } | undefined {
  const parent = schedule.parent;
  let id: TSESTree.Node | undefined;
  if (parent?.type === 'VariableDeclarator' && parent.init === schedule) id = parent.id;
  else if (parent?.type === 'AssignmentExpression' && parent.right === schedule) id = parent.left;
  if (id?.type !== 'Identifier') return undefined;
  const scope = sourceCode.getScope(id);
  let variable: Variable | undefined;
  for (let s: typeof scope | null = scope; s && !variable; s = s.upper) variable = s.set.get(id.name);
  const block = variable?.scope.block as TSESTree.Node | undefined;
  return variable && isFunctionLike(block) ? { owner: block, variable } : undefined;
}

/** Whether the timer set at `schedule` belongs to one connection, request or call of the function that set it. */
export function ownedByOneCaller(sourceCode: SourceCode, schedule: TSESTree.Node, work: FunctionLike | undefined): boolean {
  const local = localHandle(sourceCode, schedule);
  // The owner is handed what it serves (`(ws, req) =>`, `invoke(job)`); `main()` runs for the process.
  if (!local || local.owner.params.length === 0) return false;
  return local.variable.references.some(
    (r) =>
      (isClearOf(r.identifier) && clearedAtOwnerEnd(sourceCode, r.identifier, local.owner, work)) ||
      filedUnderCallKey(r.identifier, local.owner),
  );
}
