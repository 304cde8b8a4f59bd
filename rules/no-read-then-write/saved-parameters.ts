// A function handed a document it saves itself (`async function addVisit(shopper) { shopper.visits++;
// await shopper.save(); }`, a command's `run(ctx, args, data)` that ends in `await
// data.profile.save()`) holds a copy its caller (or the framework that calls it) loaded earlier: a
// field changed from the copy's own value and saved writes the whole copy back over whatever
// another request or replica wrote since the load. The parameter is taken for a document only when
// the function's own body saves it (`param.save()`, or a document it carries, `param.doc.save()`);
// a parameter the body never saves is not a row.
import type { TSESTree } from '@typescript-eslint/utils';
import { descendants } from '../../analysis/sql/descendants.js';
import { isFunctionNode } from '../../analysis/sql/enclosing-function.js';
import { memberPropertyName, propertyKeyName } from '../../analysis/ast/property-names.js';
import { SELF_SAVE_OPTIONS } from '../../src/knowledge/self-save-options.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import type { ReadSite } from './model.js';

type Node = TSESTree.Node;
type VisitorKeys = Parameters<typeof descendants>[1];

/** What a save saves: `param.save()` (the parameter), or `param.doc.save()` (the document it carries at `doc`). */
interface Saved {
  name: string;
  at?: string;
}

/** `{ session }`, `{ transaction: t, fields: ['x'] }`: options of a document's own save, nothing else. */
const isSaveOptions = (node: Node): boolean =>
  node.type === 'ObjectExpression' &&
  node.properties.every((p) => p.type === 'Property' && SELF_SAVE_OPTIONS.has(propertyKeyName(p) ?? ''));

function savedOf(node: Node): Saved | undefined {
  // `doc.save()`, `doc.save({ session })`; not `manager.save(entity)`, which saves what it is given.
  if (node.type !== 'CallExpression' || memberPropertyName(node.callee) !== 'save') return undefined;
  if (!node.arguments.every(isSaveOptions)) return undefined;
  if (node.callee.type !== 'MemberExpression') return undefined;
  const object = unwrapExpression(node.callee.object);
  if (object.type === 'Identifier') return { name: object.name };
  const carrier = object.type === 'MemberExpression' && !object.computed ? unwrapExpression(object.object) : undefined;
  const at = object.type === 'MemberExpression' ? memberPropertyName(object) : undefined;
  return carrier?.type === 'Identifier' && at !== undefined ? { name: carrier.name, at } : undefined;
}

/**
 * The parameters of `fn` its own body saves (not in a nested function), each as the read it
 * stands for; one saved both whole and at a property, or at two properties, is left alone.
 */
export function savedParameterReads(fn: TSESTree.FunctionLike, keys: VisitorKeys): Array<{ name: string; read: ReadSite }> {
  const params = new Map<string, TSESTree.Identifier>();
  for (const param of fn.params) {
    if (param.type === 'Identifier') params.set(param.name, param);
  }
  if (params.size === 0 || !fn.body || fn.body.type !== 'BlockStatement') return [];
  const saved = new Map<string, string | undefined | null>();
  for (const node of descendants(fn.body, keys, isFunctionNode)) {
    const save = savedOf(node);
    if (!save || !params.has(save.name)) continue;
    const before = saved.get(save.name);
    saved.set(save.name, before === undefined && !saved.has(save.name) ? save.at : before === save.at ? before : null);
  }
  return [...saved].flatMap(([name, at]) => {
    if (at === null) return [];
    // A document that saves itself: Mongoose's, or a Sequelize instance.
    const read: ReadSite = {
      candidates: ['mongoose', 'sequelize'],
      node: params.get(name)!,
      model: null,
      locked: false,
      mutations: [],
      boundChecks: [],
    };
    return [{ name, read: at === undefined ? read : { ...read, documentAt: at } }];
  });
}
