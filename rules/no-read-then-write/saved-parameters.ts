// A function handed a document it saves itself (`async function addVisit(shopper) { shopper.visits++;
// await shopper.save(); }`, a command's `run(ctx, args, data)` that ends in `await
// data.profile.save()`) holds a copy its caller (or the framework that calls it) loaded earlier: a
// field changed from the copy's own value and saved writes the whole copy back over whatever
// another request or replica wrote since the load. The parameter is taken for a document only when
// the function's own body saves it (`param.save()`, or a document it carries, `param.doc.save()`),
// or hands it whole to a data-access object's `save` or `update` (`this.playerRepository.update(player)`,
// a project repository writing the row it is given); a parameter the body never saves is not a row.
import type { TSESTree } from '@typescript-eslint/utils';
import { descendants } from '../../analysis/sql/descendants.js';
import { isFunctionNode } from '../../analysis/sql/enclosing-function.js';
import { memberPropertyName, propertyKeyName } from '../../analysis/ast/property-names.js';
import { SELF_SAVE_OPTIONS } from '../../src/knowledge/self-save-options.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import type { ReadSite } from './model.js';
import { DATA_ACCESS_OBJECT_NAME } from '../../src/knowledge/database-access.js';
import { partitionPoint } from '../../analysis/source/partition-point.js';
import { lastFileCache } from '../../analysis/source/last-file-cache.js';

type CallExpressionLike = TSESTree.CallExpression;

type Node = TSESTree.Node;
type VisitorKeys = Parameters<typeof descendants>[1];

/** What a save saves: `param.save()` (the parameter), or `param.doc.save()` (the document it carries at `doc`); `handed`: by a data-access object. */
interface Saved {
  name: string;
  at?: string;
  handed?: true;
}

/**
 * `this.playerRepository.update(player)`, `repo.save(player)`: the parameter handed whole, alone, to
 * a data-access object's `save` or `update` (a project repository writing the row it is given).
 */
function handedToDataAccess(node: CallExpressionLike): Saved | undefined {
  const method = memberPropertyName(node.callee);
  if ((method !== 'save' && method !== 'update') || node.arguments.length !== 1 || node.callee.type !== 'MemberExpression')
    return undefined;
  const argument = unwrapExpression(node.arguments[0]!);
  const receiver = unwrapExpression(node.callee.object);
  const name =
    receiver.type === 'Identifier' ? receiver.name : receiver.type === 'MemberExpression' ? memberPropertyName(receiver) : undefined;
  return argument.type === 'Identifier' && name !== undefined && DATA_ACCESS_OBJECT_NAME.test(name)
    ? { name: argument.name, handed: true }
    : undefined;
}

/** `{ session }`, `{ transaction: t, fields: ['x'] }`: options of a document's own save, nothing else. */
export const isSaveOptions = (node: Node): boolean =>
  node.type === 'ObjectExpression' &&
  node.properties.every((p) => p.type === 'Property' && SELF_SAVE_OPTIONS.has(propertyKeyName(p) ?? ''));

function savedOf(node: Node): Saved | undefined {
  // `doc.save()`, `doc.save({ session })`; not `manager.save(entity)`, which saves what it is given.
  if (node.type !== 'CallExpression') return undefined;
  const handed = handedToDataAccess(node);
  if (handed) return handed;
  if (memberPropertyName(node.callee) !== 'save' || !node.arguments.every(isSaveOptions)) return undefined;
  if (node.callee.type !== 'MemberExpression') return undefined;
  const object = unwrapExpression(node.callee.object);
  if (object.type === 'Identifier') return { name: object.name };
  const carrier = object.type === 'MemberExpression' && !object.computed ? unwrapExpression(object.object) : undefined;
  const at = object.type === 'MemberExpression' ? memberPropertyName(object) : undefined;
  return carrier?.type === 'Identifier' && at !== undefined ? { name: carrier.name, at } : undefined;
}

/** The name whose field `node` changes from that field's own value (`p.n++`, `p.n += k`, `p.n = p.n + k`), or undefined. */
function changedFromOwnValue(node: Node, keys: VisitorKeys): string | undefined {
  if (node.type !== 'AssignmentExpression' && node.type !== 'UpdateExpression') return undefined;
  const target = unwrapExpression(node.type === 'AssignmentExpression' ? node.left : node.argument);
  if (target.type !== 'MemberExpression' || target.object.type !== 'Identifier') return undefined;
  const owner = target.object.name;
  const field = memberPropertyName(target);
  if (node.type === 'UpdateExpression' || node.operator !== '=') return owner;
  const readsOwn = (n: Node): boolean =>
    n.type === 'MemberExpression' && n.object.type === 'Identifier' && n.object.name === owner && memberPropertyName(n) === field;
  return [node.right, ...descendants(node.right, keys)].some(readsOwn) ? owner : undefined;
}

/** What a save's method name is spelled with in the text: the two names, or an escape. */
const SAVE_SPELLINGS = ['save', 'update', '\\'];

/** An ASCII letter, digit, `_` or `$`: beside one, `save` is part of a longer name or string (`saveAll`, `'unsaved'`). */
const isAsciiNameCode = (code: number): boolean =>
  (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 95 || code === 36;

/**
 * Where the file's text holds `save` or `update` as a whole word, or a backslash, sorted. Every
 * save `savedParameterReads` takes is a call of a method named `save` or `update`
 * (`memberPropertyName`: a name, a string key, a template key), and the text spells that name
 * inside the call: as written — a whole name, or a whole string between its quotes — or with an
 * escape, which holds a backslash (`sa\u0076e`, `['sa\x76e']`, `` [`sa\x76e`] ``, a line
 * continuation). A body whose range holds none of these saves no parameter, and is not walked for one.
 */
export const saveSpellingsOf = lastFileCache((sourceCode: { readonly text: string }): number[] => {
  const text = sourceCode.text;
  const offsets: number[] = [];
  for (const word of SAVE_SPELLINGS) {
    for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
      const whole = !isAsciiNameCode(text.charCodeAt(at - 1)) && !isAsciiNameCode(text.charCodeAt(at + word.length));
      if (whole || word === '\\') offsets.push(at);
    }
  }
  return offsets.sort((a, b) => a - b);
});

/** Whether one of `spellings` (`saveSpellingsOf`) starts inside `node`. */
function spelledIn(spellings: readonly number[], node: Node): boolean {
  const first = partitionPoint(spellings, (at) => at < node.range[0]);
  return first < spellings.length && spellings[first]! < node.range[1];
}

/**
 * The parameters of `fn` its own body saves (not in a nested function), each as the read it
 * stands for; one saved both whole and at a property, or at two properties, is left alone.
 * `spellings` (`saveSpellingsOf` the file): a body that spells no save is answered at once.
 */
export function savedParameterReads(
  fn: TSESTree.FunctionLike,
  keys: VisitorKeys,
  spellings?: readonly number[],
): Array<{ name: string; read: ReadSite }> {
  const params = new Map<string, TSESTree.Identifier>();
  for (const param of fn.params) {
    if (param.type === 'Identifier') params.set(param.name, param);
  }
  if (params.size === 0 || !fn.body || fn.body.type !== 'BlockStatement') return [];
  if (spellings && !spelledIn(spellings, fn.body)) return [];
  const saved = new Map<string, string | undefined | null>();
  const byDataAccess = new Set<string>();
  const changedFromOwn = new Set<string>();
  for (const node of descendants(fn.body, keys, isFunctionNode)) {
    const changed = changedFromOwnValue(node, keys);
    if (changed !== undefined) changedFromOwn.add(changed);
    const save = savedOf(node);
    if (!save || !params.has(save.name)) continue;
    if (save.handed) byDataAccess.add(save.name);
    const before = saved.get(save.name);
    saved.set(save.name, before === undefined && !saved.has(save.name) ? save.at : before === save.at ? before : null);
  }
  return [...saved].flatMap(([name, at]) => {
    // Handed to a repository: a row only when a field of its own is changed from its own value here
    // (`player.wins += 1`), not an object the function fills from other values (`card.position = top.position + 1`).
    if (at === null || (byDataAccess.has(name) && !changedFromOwn.has(name))) return [];
    // A document that saves itself: Mongoose's, or a Sequelize instance; a row a repository writes fits any library.
    const read: ReadSite = {
      candidates: byDataAccess.has(name) ? [] : ['mongoose', 'sequelize'],
      node: params.get(name)!,
      model: null,
      locked: false,
      mutations: [],
      boundChecks: [],
    };
    return [{ name, read: at === undefined ? read : { ...read, documentAt: at } }];
  });
}
