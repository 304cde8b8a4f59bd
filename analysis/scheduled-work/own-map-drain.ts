// A job draining a keyed queue this instance keeps in memory: it walks a field holding a `Map` or
// `Set` (`for (const [id] of this.pendingRefunds)`) and takes each entry off as it goes
// (`this.pendingRefunds.delete(id)`) or empties the field after the walk (`.clear()`), while another
// method of the class puts one entry per call (`this.pendingRefunds.set(id, at)` in an event or
// request handler). Each entry was handed to this process once, by its own callers: at N replicas
// each drains what it was handed, and what the loop does per entry is not repeated. A field filled
// in a loop (rows loaded from a store) is no such queue: every replica would load the same rows.
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { memberPropertyName } from '../ast/property-names.js';
import { enclosingClass } from '../ast/class-fields.js';
import { descendants } from '../sql/descendants.js';
import { holdsInMemoryStructure } from './in-memory-values.js';
import { isFunctionLike, type FunctionLike } from './work-function.js';
import { lastFileCache } from '../source/last-file-cache.js';

const TAKES: ReadonlySet<string> = new Set(['delete']);
const EMPTIES: ReadonlySet<string> = new Set(['clear']);
const PUTS: ReadonlySet<string> = new Set(['set', 'add']);
const WALKS: ReadonlySet<string> = new Set(['keys', 'values', 'entries']);

/** `this.x` of `this.x` or `this.x.keys()`, when the walk is over a field of the instance. */
function fieldWalked(node: TSESTree.Node): TSESTree.MemberExpression | undefined {
  let value = node;
  if (value.type === 'CallExpression' && value.callee.type === 'MemberExpression' && WALKS.has(memberPropertyName(value.callee) ?? ''))
    value = value.callee.object;
  return value.type === 'MemberExpression' && value.object.type === 'ThisExpression' ? value : undefined;
}

/** `this.<field>.<method>(…)` with a method of `methods`. */
function callsOnField(node: TSESTree.Node, field: string, methods: ReadonlySet<string>): boolean {
  if (node.type !== 'CallExpression' || node.callee.type !== 'MemberExpression') return false;
  const receiver = node.callee.object;
  return (
    methods.has(memberPropertyName(node.callee) ?? '') &&
    receiver.type === 'MemberExpression' &&
    receiver.object.type === 'ThisExpression' &&
    memberPropertyName(receiver) === field
  );
}

/** Whether `node` sits in a loop (or a loop's callback) inside its own function. */
function inLoop(node: TSESTree.Node): boolean {
  for (let current = node.parent; current && !isFunctionLike(current); current = current.parent) {
    if (/^(?:For|ForOf|ForIn|While|DoWhile)Statement$/.test(current.type)) return true;
  }
  let fn: TSESTree.Node | undefined = node.parent;
  while (fn && !isFunctionLike(fn)) fn = fn.parent;
  const call = fn?.parent;
  return call?.type === 'CallExpression' && ['forEach', 'map'].includes(memberPropertyName(call.callee) ?? '');
}

/** The walk takes each entry off the field, or the statements after it empty the field. */
function takesEntries(loop: TSESTree.ForOfStatement, field: string, sourceCode: SourceCode): boolean {
  for (const node of descendants(loop.body, sourceCode.visitorKeys)) if (callsOnField(node, field, TAKES)) return true;
  const block = loop.parent;
  if (block?.type !== 'BlockStatement') return false;
  return block.body
    .slice(block.body.indexOf(loop) + 1)
    .some((s) => s.type === 'ExpressionStatement' && callsOnField(s.expression, field, EMPTIES));
}

/** Another method of the class puts entries into the field, one per call (never in a loop). */
function filledOnePerCall(work: FunctionLike, field: string, sourceCode: SourceCode): boolean {
  const cls = enclosingClass(work);
  if (!cls) return false;
  let puts = 0;
  for (const node of descendants(cls.body, sourceCode.visitorKeys)) {
    if (!callsOnField(node, field, PUTS) || (node.range[0] >= work.range[0] && node.range[1] <= work.range[1])) continue;
    if (inLoop(node)) return false;
    puts++;
  }
  return puts > 0;
}

/** Whether the file takes anything off a structure at all: asked once per file, not once per work (a pass over the text each). */
const mayTakeEntries = lastFileCache(
  (sourceCode: SourceCode): boolean => sourceCode.text.includes('.delete(') || sourceCode.text.includes('.clear('),
);

/** The loops of `work` that drain a keyed queue of the instance (see the header); empty when there is none. */
export function ownQueueDrainLoops(sourceCode: SourceCode, work: FunctionLike): TSESTree.ForOfStatement[] {
  if (!mayTakeEntries(sourceCode)) return [];
  const loops: TSESTree.ForOfStatement[] = [];
  for (const node of descendants(work.body, sourceCode.visitorKeys)) {
    if (node.type !== 'ForOfStatement') continue;
    const holder = fieldWalked(node.right);
    const field = holder && memberPropertyName(holder);
    if (field === undefined || !holdsInMemoryStructure(sourceCode, holder!)) continue;
    if (takesEntries(node, field, sourceCode) && filledOnePerCall(work, field, sourceCode)) loops.push(node);
  }
  return loops;
}
