// A Mongoose schema's instance method (`schema.methods.reserve = function () { this.free -= 1;
// return this.save(); }`) runs on a document its caller loaded earlier: `this` is that copy, and a
// field changed from its own value and saved writes the copy back over whatever another request or
// replica wrote since the load. Statics (`schema.statics.x`, where `this` is the model) and arrow
// functions (whose `this` is not the document) are not such methods.
import type { TSESTree } from '@typescript-eslint/utils';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { SCHEMA_METHOD_BAG, SCHEMA_METHOD_REGISTRAR, SCHEMA_METHOD_TEXT } from '../../src/knowledge/document-methods.js';
import type { ReadSite, Taint } from './model.js';
import { mentionsModelClass, modelMethodRow } from './model-instance-methods.js';

type Node = TSESTree.Node;

/** `schema.methods` (or `Object.assign(schema.methods, …)`'s first argument): the bag of instance methods. */
const isMethodBag = (node: Node): boolean => memberPropertyName(unwrapExpression(node)) === SCHEMA_METHOD_BAG;

/** `schema.method(…)`: the registrar of instance methods, given a name and a function or an object of them. */
const isRegistrar = (call: TSESTree.CallExpression): boolean =>
  memberPropertyName(unwrapExpression(call.callee)) === SCHEMA_METHOD_REGISTRAR;

/** The object `{ reserve() {…} }` is a set of instance methods: assigned to the bag, merged into it, or registered. */
function holdsInstanceMethods(object: TSESTree.ObjectExpression): boolean {
  const holder = object.parent;
  if (holder?.type === 'AssignmentExpression') return holder.right === object && isMethodBag(holder.left);
  if (holder?.type !== 'CallExpression') return false;
  if (isRegistrar(holder)) return holder.arguments.length === 1 && holder.arguments[0] === object;
  const callee = unwrapExpression(holder.callee);
  const assigns = callee.type === 'MemberExpression' && memberPropertyName(callee) === 'assign';
  return assigns && holder.arguments[0] !== undefined && isMethodBag(holder.arguments[0]) && holder.arguments.includes(object);
}

/** The name node of the instance method `fn` is, or undefined when it is none. */
function instanceMethodName(fn: TSESTree.FunctionExpression): TSESTree.Identifier | undefined {
  const parent = fn.parent;
  // schema.methods.reserve = function () {…}
  if (parent?.type === 'AssignmentExpression' && parent.right === fn) {
    const left = parent.left;
    return left.type === 'MemberExpression' && !left.computed && left.property.type === 'Identifier' && isMethodBag(left.object)
      ? left.property
      : undefined;
  }
  // schema.methods = { reserve() {…} }, schema.method({ reserve: function () {…} })
  if (parent?.type === 'Property' && parent.value === fn && parent.parent.type === 'ObjectExpression')
    return parent.key.type === 'Identifier' && holdsInstanceMethods(parent.parent) ? parent.key : undefined;
  // schema.method('reserve', function () {…})
  if (parent?.type === 'CallExpression' && isRegistrar(parent) && parent.arguments[1] === fn && parent.callee.type === 'MemberExpression') {
    const property = parent.callee.property;
    return property.type === 'Identifier' ? property : undefined;
  }
  return undefined;
}

/** The document `this` is in `fn` when `fn` is a Mongoose schema's instance method, as the read it stands for; null otherwise. */
export function schemaMethodDocument(fn: TSESTree.FunctionLike): ReadSite | null {
  if (fn.type !== 'FunctionExpression') return null;
  const name = instanceMethodName(fn);
  return name ? { candidates: ['mongoose'], node: name, model: null, locked: false, mutations: [], boundChecks: [] } : null;
}

/** Whether `text` can declare a schema's instance method (a test on the text, before any AST work). */
export function mentionsSchemaMethod(text: string): boolean {
  return SCHEMA_METHOD_TEXT.test(text) || mentionsModelClass(text);
}

/** The frames of the taint engine, as far as `this` needs them. */
interface ThisFrames {
  readonly anyLive: boolean;
  lookup(name: string): Taint | null | undefined;
  declare(name: string, taint: Taint | null): void;
}

/**
 * On entering `fn`: `this` of a schema's instance method holds its document; any other function
 * with a `this` of its own (not an arrow) hides an outer method's.
 */
export function bindThis(fn: TSESTree.FunctionLike, frames: ThisFrames): void {
  const document = schemaMethodDocument(fn) ?? modelMethodRow(fn);
  if (document) frames.declare('this', { read: document, field: null, computed: null });
  else if (fn.type !== 'ArrowFunctionExpression' && frames.anyLive && frames.lookup('this')) frames.declare('this', null);
}
