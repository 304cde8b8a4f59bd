// Model lifecycle hooks that run while an instance is saved (Sequelize `beforeUpdate`, its
// sequelize-typescript decorator `@BeforeUpdate`, `addHook('beforeSave', …)`, `hooks: { … }` in
// the model options). The hook's first parameter is an instance loaded earlier: a field changed
// from its own value there is written back by the save as an absolute value.
import type { TSESTree } from '@typescript-eslint/utils';
import { INSTANCE_SAVE_HOOKS } from '../../src/knowledge/orm-reads-writes.js';
import { memberPropertyName, propertyKeyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import type { FieldChange, PendingFinding, ReadSite, WriteSite } from './model.js';
import { decoratorName } from '../../analysis/ast/decorator-name.js';

const DECORATORS: ReadonlySet<string> = new Set(INSTANCE_SAVE_HOOKS.decorators);
const HOOK_NAMES: ReadonlySet<string> = new Set(INSTANCE_SAVE_HOOKS.hookNames);
const REGISTRARS: ReadonlySet<string> = new Set(INSTANCE_SAVE_HOOKS.registrars);

function isSaveHook(fn: TSESTree.FunctionLike): boolean {
  const parent = fn.parent;
  if (!parent) return false;
  // @BeforeUpdate static touch(instance: Doc) { … } (espree gives a method no `decorators`)
  if (parent.type === 'MethodDefinition' && parent.value === fn)
    return (parent.decorators ?? []).some((decorator) => DECORATORS.has(decoratorName(decorator) ?? ''));
  // Doc.beforeUpdate((doc) => …), Doc.addHook('beforeSave', 'name', (doc) => …)
  if (parent.type === 'CallExpression' && parent.arguments[parent.arguments.length - 1] === fn) {
    const callee = unwrapExpression(parent.callee);
    const method = callee.type === 'MemberExpression' ? memberPropertyName(callee) : undefined;
    if (method === undefined) return false;
    if (HOOK_NAMES.has(method)) return true;
    const event = parent.arguments[0];
    return REGISTRARS.has(method) && event?.type === 'Literal' && typeof event.value === 'string' && HOOK_NAMES.has(event.value);
  }
  // Model.init(attributes, { hooks: { beforeUpdate(doc) { … } } })
  if (parent.type === 'Property' && parent.value === fn && HOOK_NAMES.has(propertyKeyName(parent) ?? '')) {
    const hooks = parent.parent.parent;
    return hooks?.type === 'Property' && propertyKeyName(hooks) === 'hooks';
  }
  return false;
}

/** The instance parameter of a save hook, or null when `fn` is no save hook. */
export function saveHookInstanceOf(fn: TSESTree.FunctionLike): TSESTree.Identifier | null {
  const first = fn.params[0];
  if (!first) return null;
  const param = first.type === 'TSParameterProperty' ? first.parameter : first;
  if (param.type !== 'Identifier') return null;
  return isSaveHook(fn) ? param : null;
}

/** The write a change made in a save hook is: the save itself, reported at the changed field. */
export function hookWriteSite(
  target: TSESTree.MemberExpression,
  node: TSESTree.AssignmentExpression | TSESTree.UpdateExpression,
): WriteSite {
  const shape = { method: 'hook', nameNode: target, data: undefined, filter: undefined };
  return { candidates: ['sequelize'], model: null, node, reportNode: target, values: [], entities: [], conditions: [], shape };
}

/** In a save hook, a field set from its own value (`doc.revisions += 1`) is written by the save as it stands: that finding, or null. */
export function hookChangeOf(
  read: ReadSite,
  target: TSESTree.MemberExpression,
  change: FieldChange,
  node: TSESTree.AssignmentExpression | TSESTree.UpdateExpression,
  ignoredFields: ReadonlySet<string>,
): PendingFinding | null {
  const field = memberPropertyName(target) ?? null;
  const selfReferential = node.type === 'UpdateExpression' || node.operator !== '=' ? change.operator !== null : change.readField === field;
  if (!selfReferential || (field !== null && ignoredFields.has(field))) return null;
  return { read, write: hookWriteSite(target, node), changes: [change], loc: undefined };
}
