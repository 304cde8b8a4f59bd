// A number allocated from a loaded document's own list, put in the entry pushed onto that list, and
// the document saved:
//
//   const mural = await loadMural({ name });
//   const top = newestEdit(mural);                   // or mural.edits[mural.edits.length - 1]
//   mural.edits.push({ number: top.number + 1, … }); // one past the last entry's number (or
//                                                        // set on a copy pushed after: copy.number = top.number + 1) …
//   await mural.save();                                  // … or handed to a save helper: persistMural(mural)
//
// Two requests or replicas load the same document, both number their entry one past the same last
// one and both save: two entries with one number (a document store may send the push itself as an
// atomic append; the number was still made from the copy). Not reported: a number from elsewhere
// than the document, a document built in the function rather than loaded, a document not saved
// after the push, the allocation under a lock or a retry (next-from-highest.ts' tests).
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import type { TSESTree } from '@typescript-eslint/utils';
import { LOADER_CALL_NAME } from '../../src/knowledge/orm-reads-writes.js';
import { calleeName } from '../../analysis/ast/callee-name.js';
import { chosenValue } from '../../analysis/ast/chosen-value.js';
import { memberPropertyName, propertyKeyName } from '../../analysis/ast/property-names.js';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { descendants } from '../../analysis/sql/descendants.js';
import { allocationSerialised, incrementedOperand, libraryOf, sentThroughName, type NextFromHighest } from './next-from-highest.js';

type Node = TSESTree.Node;

/** Methods that add an entry to a list. */
const ADDING_METHODS: ReadonlySet<string> = new Set(['push', 'unshift']);
/** A helper of the project that saves the document it is handed (`persistMural(mural)`, `this._saveMural(mural)`). */
const SAVE_HELPER_NAME = /^_?(?:save|persist|store)(?:[A-Z]|$)/;

/** The document whose list `call` adds `entry` to (`mural` of `mural.edits.push(entry)`), when it is a name. */
function listOwner(entry: Node): TSESTree.Identifier | undefined {
  const call = entry.parent;
  if (call?.type !== 'CallExpression' || !call.arguments.includes(entry as TSESTree.Expression)) return undefined;
  const callee = unwrapExpression(call.callee);
  if (callee.type !== 'MemberExpression' || !ADDING_METHODS.has(memberPropertyName(callee) ?? '')) return undefined;
  const list = unwrapExpression(callee.object);
  if (list.type !== 'MemberExpression') return undefined;
  const owner = unwrapExpression(list.object);
  return owner.type === 'Identifier' ? owner : undefined;
}

/**
 * The entry `value` is a field of, as handed to a call, and that field: in the object literal
 * handed (`push({ number: value })`), or set on an object pushed after (`copy.number = value` …
 * `push(copy)`).
 */
function entryOf(value: Node, sourceCode: Readonly<SourceCode>): { pushed: Node; field: string } | undefined {
  const parent = value.parent;
  if (parent?.type === 'Property' && parent.value === value && parent.parent.type === 'ObjectExpression') {
    const field = propertyKeyName(parent);
    return field === undefined ? undefined : { pushed: parent.parent, field };
  }
  if (parent?.type !== 'AssignmentExpression' || parent.operator !== '=' || parent.right !== value) return undefined;
  const target = parent.left;
  const object = target.type === 'MemberExpression' ? unwrapExpression(target.object) : undefined;
  const field = target.type === 'MemberExpression' ? memberPropertyName(target) : undefined;
  if (object?.type !== 'Identifier' || field === undefined) return undefined;
  for (const reference of scopeVariable(sourceCode, object)?.references ?? []) {
    const id = reference.identifier as Node;
    if (id.range[0] > parent.range[1] && id.parent?.type === 'CallExpression' && listOwner(id)) return { pushed: id, field };
  }
  return undefined;
}

/** The loader call a name was given (`const mural = await loadMural(q)`), when its callee is named for a read. */
function loadedBy(id: TSESTree.Identifier, sourceCode: Readonly<SourceCode>): TSESTree.CallExpression | undefined {
  const def = scopeVariable(sourceCode, id)?.defs[0];
  const init = def?.node.type === 'VariableDeclarator' && def.node.id.type === 'Identifier' ? def.node.init : null;
  const call = init ? unwrapExpression(init, { await: true }) : undefined;
  return call?.type === 'CallExpression' && LOADER_CALL_NAME.test(calleeName(call) ?? '') ? call : undefined;
}

/** Whether `node` names `owner`, itself or in the expression a name in it was given (`top` of `const top = newest(mural)`). */
function madeFrom(node: Node, owner: string, sourceCode: Readonly<SourceCode>, depth = 0): boolean {
  for (const n of [node, ...descendants(node, sourceCode.visitorKeys)]) {
    if (n.type !== 'Identifier') continue;
    if (n.name === owner) return true;
    const def = depth < 2 ? scopeVariable(sourceCode, n)?.defs[0] : undefined;
    const init = def?.node.type === 'VariableDeclarator' ? def.node.init : null;
    if (init && madeFrom(init, owner, sourceCode, depth + 1)) return true;
  }
  return false;
}

/** The save of `owner` after `after`: `owner.save()`, `repo.save(owner)` (sentThroughName), or a save helper handed it. */
function savedAfter(
  owner: TSESTree.Identifier,
  after: number,
  field: string,
  sourceCode: Readonly<SourceCode>,
): TSESTree.CallExpression | undefined {
  const sent = sentThroughName(owner, sourceCode, field);
  if (sent && sent.write.type === 'CallExpression' && sent.write.range[0] > after) return sent.write;
  for (const reference of scopeVariable(sourceCode, owner)?.references ?? []) {
    const parent = reference.identifier.parent;
    if (reference.identifier.range[0] < after || parent?.type !== 'CallExpression') continue;
    if (parent.arguments.includes(reference.identifier as TSESTree.Identifier) && SAVE_HELPER_NAME.test(calleeName(parent) ?? ''))
      return parent;
  }
  return undefined;
}

/** The number `value` allocates from the document it is pushed onto, when that document is loaded and then saved; `undefined` otherwise. */
export function pushedEntryNumberOf(value: TSESTree.BinaryExpression, sourceCode: Readonly<SourceCode>): NextFromHighest | undefined {
  const operand = value.operator === '+' ? incrementedOperand(value) : undefined;
  const at = chosenValue(value);
  const entry = operand?.type === 'MemberExpression' ? entryOf(at, sourceCode) : undefined;
  const owner = entry && listOwner(entry.pushed);
  const read = owner && loadedBy(owner, sourceCode);
  if (!entry || !owner || !read || !madeFrom(operand!, owner.name, sourceCode)) return undefined;
  const { field } = entry;
  const write = savedAfter(owner, entry.pushed.range[1], field, sourceCode);
  if (!write || allocationSerialised(value, write, sourceCode)) return undefined;
  return { value, write, field, read, library: libraryOf(read, sourceCode) };
}
