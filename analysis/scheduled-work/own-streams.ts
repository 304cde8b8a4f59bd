// A write to a web stream this process built for one response: `new ReadableStream({ start(controller)
// { setInterval(() => controller.enqueue(ping), ms) } })`. The controller reaches the one client
// reading that stream, so the same timer at N replicas writes to each client once — per replica by
// construction, whatever the method is called (`enqueue` is also a queue's verb).
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { scopeVariable } from '../ast/scope-variable.js';
import { propertyKeyName } from '../ast/property-names.js';
import { OWN_STREAM_CLASSES, OWN_STREAM_SOURCE_METHODS } from '../../src/knowledge/work-effects.js';

/** The function whose parameter `name` is, when it is a source method (`start`, `pull`) of an object given to `new ReadableStream(…)`. */
function isStreamSourceParameter(sourceCode: SourceCode, name: TSESTree.Identifier): boolean {
  const def = scopeVariable(sourceCode, name)?.defs[0];
  if (def?.type !== 'Parameter') return false;
  const fn = def.node;
  const property = fn.parent;
  if (property?.type !== 'Property' || property.value !== fn || !OWN_STREAM_SOURCE_METHODS.includes(propertyKeyName(property) ?? ''))
    return false;
  const source = property.parent;
  const created = source?.parent;
  return (
    created?.type === 'NewExpression' &&
    created.arguments[0] === source &&
    created.callee.type === 'Identifier' &&
    OWN_STREAM_CLASSES.includes(created.callee.name)
  );
}

/** Whether a file builds a web stream at all: asked once per file, before any variable lookup. */
const buildsStreams = new WeakMap<SourceCode, boolean>();
function mayBuildStream(sourceCode: SourceCode): boolean {
  let known = buildsStreams.get(sourceCode);
  if (known === undefined) buildsStreams.set(sourceCode, (known = OWN_STREAM_CLASSES.some((c) => sourceCode.text.includes(c))));
  return known;
}

/** `controller.enqueue(chunk)` where `controller` is the one a stream built here hands its source. */
export function writesToOwnStream(sourceCode: SourceCode, call: TSESTree.CallExpression): boolean {
  const callee = call.callee;
  if (callee.type !== 'MemberExpression' || callee.object.type !== 'Identifier' || !mayBuildStream(sourceCode)) return false;
  return isStreamSourceParameter(sourceCode, callee.object);
}

/**
 * Whether the work `fn` feeds the stream a response reads (`controller.enqueue(event)` on the
 * controller of a `new ReadableStream({ start(controller) … })` built here): a timer of that one
 * response, polling for what to send it — run once per open stream, not once per replica, whatever
 * else it reads or notes down for that client on the way (`redis.set(\`shop:lastSeen:${id}\`, …)`).
 */
export function feedsOwnStream(sourceCode: SourceCode, fn: TSESTree.Node): boolean {
  if (!mayBuildStream(sourceCode)) return false;
  const keys = sourceCode.visitorKeys as Record<string, readonly string[] | undefined>;
  const visit = (node: TSESTree.Node): boolean => {
    if (node.type === 'CallExpression' && writesToOwnStream(sourceCode, node)) return true;
    return (keys[node.type] ?? []).some((key) => {
      const child = (node as unknown as Record<string, unknown>)[key];
      return (Array.isArray(child) ? child : [child]).some(
        (item) => item && typeof (item as TSESTree.Node).type === 'string' && visit(item as TSESTree.Node),
      );
    });
  };
  return visit(fn);
}
