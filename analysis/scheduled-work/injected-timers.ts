// A timer provider the project injects instead of calling the global timer (src/knowledge/own-schedulers.ts):
// `this.timers.setTimeout(() => this.rotate(), ms)`, `this.clock.setInterval(tick, ms)`, a parameter typed
// `Clock`, or a field set to `{ now: Date.now, setTimeout, clearTimeout }` so that tests can swap it. Its
// `setTimeout` is the global one, judged as that timer of the catalogue. Another object's `setTimeout`
// — a socket's `setTimeout(ms)`, a request's `req.setTimeout(ms, onIdle)` — is its own API: not one.
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { PROVIDED_TIMER_CALL, PROVIDED_TIMER_METHODS, TIMER_PROVIDER_WORDS } from '../../src/knowledge/own-schedulers.js';
import { SCHEDULERS } from '../../src/knowledge/schedulers.js';
import { nameWords } from '../ast/name-words.js';
import { nodeAt } from '../ast/node-at.js';
import { memberPropertyName, propertyKeyName } from '../ast/property-names.js';
import { receiverName } from '../ast/receiver-name.js';
import { scopeVariable } from '../ast/scope-variable.js';
import { typeReferenceName } from '../ast/type-reference-name.js';
import { unwrapExpression } from '../ast/unwrapped-expression.js';
import { classFieldValues, enclosingClass, fieldName } from '../ast/class-fields.js';
import { worksAt, type ScheduledWork } from './scheduled-work.js';

const CANDIDATES = new RegExp(PROVIDED_TIMER_CALL.source, 'g');

const namedForTimers = (name: string | undefined): boolean =>
  name !== undefined && nameWords(name).some((word) => TIMER_PROVIDER_WORDS.includes(word));

/** `{ now, setTimeout, clearTimeout }`: an object literal whose `method` is the global timer of that name. */
function holdsGlobalTimer(sourceCode: SourceCode, value: TSESTree.Node, method: string): boolean {
  if (value.type !== 'ObjectExpression') return false;
  return value.properties.some((p) => {
    if (p.type !== 'Property' || propertyKeyName(p) !== method || p.value.type !== 'Identifier' || p.value.name !== method) return false;
    return (scopeVariable(sourceCode, p.value)?.defs.length ?? 0) === 0;
  });
}

/** The annotations and values a receiver is given: a `this` field's anywhere in its class, a parameter's or variable's own. */
function givenTo(sourceCode: SourceCode, receiver: TSESTree.Node): readonly TSESTree.Node[] {
  if (receiver.type === 'MemberExpression' && receiver.object.type === 'ThisExpression') {
    const owner = enclosingClass(receiver);
    const name = fieldName(receiver);
    const keys = sourceCode.visitorKeys as Record<string, readonly string[] | undefined>;
    return owner && name !== undefined ? (classFieldValues(owner, keys).get(name) ?? []) : [];
  }
  if (receiver.type !== 'Identifier') return [];
  const def = scopeVariable(sourceCode, receiver)?.defs[0];
  const id = def?.name as TSESTree.Node | undefined;
  const given: TSESTree.Node[] = [];
  if (id?.type === 'Identifier' && id.typeAnnotation) given.push(id.typeAnnotation);
  if (def?.node.type === 'VariableDeclarator' && def.node.init) given.push(def.node.init);
  return given;
}

/** Whether the receiver of `receiver.setTimeout(…)` is a timer provider: named or typed for timers, or given the global timer. */
function isTimerProvider(sourceCode: SourceCode, receiver: TSESTree.Node, method: string): boolean {
  if (receiver.type !== 'Identifier' && receiver.type !== 'MemberExpression') return false;
  if (namedForTimers(receiverName(receiver))) return true;
  return givenTo(sourceCode, receiver).some(
    (value) => holdsGlobalTimer(sourceCode, value, method) || namedForTimers(typeReferenceName(value)),
  );
}

/** Every timer the file arms through an injected timer provider, judged as the global timer it stands for. */
export function injectedTimerWorks(sourceCode: SourceCode, known: ReadonlySet<TSESTree.Node>): ScheduledWork[] {
  const out: ScheduledWork[] = [];
  for (const match of sourceCode.text.matchAll(CANDIDATES)) {
    const property = nodeAt(sourceCode, match.index + match[0].indexOf('set'));
    const member = property?.parent;
    const call = member?.parent;
    if (member?.type !== 'MemberExpression' || member.property !== property || call?.type !== 'CallExpression') continue;
    if (call.callee !== member || known.has(call)) continue;
    const method = memberPropertyName(member);
    const entry = SCHEDULERS.find((e) => e.id === method && e.modules.includes(null));
    if (!entry || !PROVIDED_TIMER_METHODS.includes(method!) || !isTimerProvider(sourceCode, unwrapExpression(member.object), method!))
      continue;
    out.push(...worksAt(sourceCode, entry, call));
  }
  return out;
}
