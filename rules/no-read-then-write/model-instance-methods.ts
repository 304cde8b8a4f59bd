// A Sequelize model's instance method (`class Seat extends Model { async take() { if (this.taken
// >= this.max) throw …; await this.increment('taken'); } }`) runs on a row its caller loaded
// earlier: `this` is that copy, as `this` of a Mongoose schema's instance method is
// (schema-methods.ts). Static methods (where `this` is the model), getters, setters and the
// constructor are not such methods.
import type { TSESTree } from '@typescript-eslint/utils';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { ROW_MODEL_BASE, ROW_MODEL_CLASS_TEXT } from '../../src/knowledge/document-methods.js';
import type { ReadSite } from './model.js';

/** `Model`, `Sequelize.Model`, `sequelize.Model`. */
function isRowModel(base: TSESTree.Node | null): boolean {
  const expr = base ? unwrapExpression(base) : null;
  if (expr?.type === 'Identifier') return expr.name === ROW_MODEL_BASE;
  return expr?.type === 'MemberExpression' && memberPropertyName(expr) === ROW_MODEL_BASE;
}

/** The row `this` is in `fn` when `fn` is an instance method of a model class, as the read it stands for; null otherwise. */
export function modelMethodRow(fn: TSESTree.FunctionLike): ReadSite | null {
  const method = fn.type === 'FunctionExpression' ? fn.parent : undefined;
  if (method?.type !== 'MethodDefinition' || method.static || method.kind !== 'method' || method.key.type !== 'Identifier') return null;
  const cls = method.parent.parent;
  if ((cls.type !== 'ClassDeclaration' && cls.type !== 'ClassExpression') || !isRowModel(cls.superClass)) return null;
  return { candidates: ['sequelize'], node: method.key, model: null, locked: false, mutations: [], boundChecks: [] };
}

/** Whether `text` can declare a model class (a test on the text, before any AST work). */
export function mentionsModelClass(text: string): boolean {
  return ROW_MODEL_CLASS_TEXT.test(text);
}
