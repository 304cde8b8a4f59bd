// Work that flushes what this process gathered in memory: it walks a collection held by the instance
// (`Object.entries(this.statsPerTeam)`, `this.pending.forEach(…)`, `for (const e of this.buffer)`) and
// then starts it afresh (`this.statsPerTeam = {}`, `this.pending = []`, `this.buffer.clear()`,
// `this.buffer.length = 0`) — itself or in a method of its class it calls. Each replica sends what it
// gathered, once: per replica, even when a declared job (an hourly cron) runs it. A collection walked
// but kept (filled once from a query at start) is not a buffer.
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { memberPropertyName } from '../ast/property-names.js';
import { descendants } from '../sql/descendants.js';
import { isFunctionLike, ownMethodCalled, type FunctionLike } from './work-function.js';

const WALKS: ReadonlySet<string> = new Set(['forEach', 'map', 'keys', 'values', 'entries']);
const OBJECT_WALKS: ReadonlySet<string> = new Set(['keys', 'values', 'entries']);
const EMPTIES: ReadonlySet<string> = new Set(['clear']);

/** `this.x` → `x`; anything else undefined. */
function instanceField(node: TSESTree.Node | undefined): string | undefined {
  return node?.type === 'MemberExpression' && node.object.type === 'ThisExpression' ? memberPropertyName(node) : undefined;
}

/** A fresh, empty collection: `{}`, `[]`, `new Map()`, `new Set()` (a type assertion around it allowed). */
function isEmptyCollection(node: TSESTree.Node): boolean {
  const value = node.type === 'TSAsExpression' ? node.expression : node;
  if (value.type === 'ObjectExpression') return value.properties.length === 0;
  if (value.type === 'ArrayExpression') return value.elements.length === 0;
  return (
    value.type === 'NewExpression' &&
    value.arguments.length === 0 &&
    value.callee.type === 'Identifier' &&
    ['Map', 'Set'].includes(value.callee.name)
  );
}

/** The fields a function walks and the fields it empties. */
function walkedAndEmptied(fn: FunctionLike, sourceCode: SourceCode): { walked: Set<string>; emptied: Set<string> } {
  const walked = new Set<string>();
  const emptied = new Set<string>();
  for (const node of descendants(
    fn.body,
    sourceCode.visitorKeys,
    (child) => isFunctionLike(child) && child.parent?.type !== 'CallExpression',
  )) {
    if (node.type === 'CallExpression' && node.callee.type === 'MemberExpression') {
      const method = memberPropertyName(node.callee);
      const object = node.callee.object;
      const isObject = object.type === 'Identifier' && object.name === 'Object' && OBJECT_WALKS.has(method ?? '');
      const field = instanceField(isObject ? node.arguments[0] : object);
      if (field && (isObject || WALKS.has(method ?? ''))) walked.add(field);
      if (field && !isObject && EMPTIES.has(method ?? '')) emptied.add(field);
    }
    if ((node.type === 'ForOfStatement' || node.type === 'ForInStatement') && instanceField(node.right))
      walked.add(instanceField(node.right)!);
    if (node.type === 'AssignmentExpression' && node.operator === '=') {
      const field = instanceField(node.left);
      if (field && isEmptyCollection(node.right)) emptied.add(field);
      // `this.buffer.length = 0`
      if (
        node.left.type === 'MemberExpression' &&
        memberPropertyName(node.left) === 'length' &&
        node.right.type === 'Literal' &&
        node.right.value === 0
      ) {
        const owner = instanceField(node.left.object);
        if (owner) emptied.add(owner);
      }
    }
  }
  return { walked, emptied };
}

/** Whether `work`, or a method of its class it calls (one level), walks an instance collection and empties it. */
export function drainsOwnBuffer(sourceCode: SourceCode, work: FunctionLike): boolean {
  const functions = [work];
  for (const node of descendants(work.body, sourceCode.visitorKeys)) {
    const method = node.type === 'CallExpression' ? ownMethodCalled(node) : undefined;
    if (method && !functions.includes(method)) functions.push(method);
  }
  return functions.some((fn) => {
    const { walked, emptied } = walkedAndEmptied(fn, sourceCode);
    return [...walked].some((field) => emptied.has(field));
  });
}
