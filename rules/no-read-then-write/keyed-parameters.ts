// A function handed a row that it writes back to by the row's own key, in the model the parameter
// is named for (`processJob(job)` … `prisma.job.update({ where: { id: job.id }, data: { attempts:
// job.attempts + 1 } })`): the parameter is a row its caller loaded, and a field written from its
// own value overwrites what another request or replica wrote since the load. The key and the name
// together show the row; a parameter written to another model, or by another key, is not taken for
// one. Only a function the module exports as declared: one the file calls itself is judged by what
// the call hands it.
import type { TSESTree } from '@typescript-eslint/utils';
import { descendants } from '../../analysis/sql/descendants.js';
import { isFunctionNode } from '../../analysis/sql/enclosing-function.js';
import { memberPropertyName, propertyKeyName } from '../../analysis/ast/property-names.js';
import { receiverName } from '../../analysis/ast/receiver-name.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { PRIMARY_KEY_COLUMN } from '../../src/knowledge/orm-reads-writes.js';
import type { ReadSite } from './model.js';

type Node = TSESTree.Node;
type VisitorKeys = Parameters<typeof descendants>[1];

/** Updates by key: Prisma / TypeORM / Sequelize `update`, Mongo's one-row updates. */
const KEYED_UPDATES: ReadonlySet<string> = new Set(['update', 'updateOne', 'findOneAndUpdate', 'findByIdAndUpdate']);

/** `jobRepository`, `Jobs`, `job_model` → `job`: a model's name without its kind, case or plural. */
export const modelWord = (name: string): string =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')
    .replace(/(?:repository|repo|model|collection|table|entity)$/, '')
    .replace(/s$/, '');

/** `{ id: job.id }` (also inside `where`): the parameter named by its own key; the name of that parameter. */
function keyedParameter(filter: Node | undefined): string | undefined {
  const expr = filter ? unwrapExpression(filter) : undefined;
  if (expr?.type !== 'ObjectExpression') return undefined;
  for (const property of expr.properties) {
    if (property.type !== 'Property') continue;
    const key = propertyKeyName(property);
    if (key === 'where') return keyedParameter(property.value);
    const value = unwrapExpression(property.value);
    if (key === undefined || !PRIMARY_KEY_COLUMN.test(key) || value.type !== 'MemberExpression') continue;
    const object = unwrapExpression(value.object);
    if (object.type === 'Identifier' && memberPropertyName(value) === key) return object.name;
  }
  return undefined;
}

/**
 * Whether `fn` is exported as it is declared (`export async function`, `export const f = async () =>`):
 * its callers are other modules, which read the row; a function this file calls is judged by what
 * the call hands it (parameter-rows.ts).
 */
function exportedAsDeclared(fn: TSESTree.FunctionLike): boolean {
  const holder = fn.parent?.type === 'VariableDeclarator' ? fn.parent.parent?.parent : fn.parent;
  return holder?.type === 'ExportNamedDeclaration' || holder?.type === 'ExportDefaultDeclaration';
}

/** The parameters of an exported `fn` written back by their own key to the model they are named for, each as the read it stands for. */
export function keyedParameterReads(fn: TSESTree.FunctionLike, keys: VisitorKeys): Array<{ name: string; read: ReadSite }> {
  if (!exportedAsDeclared(fn)) return [];
  const params = new Map<string, TSESTree.Identifier>();
  for (const param of fn.params) if (param.type === 'Identifier') params.set(param.name, param);
  if (params.size === 0 || !fn.body || fn.body.type !== 'BlockStatement') return [];
  const found = new Map<string, string>();
  for (const node of descendants(fn.body, keys, isFunctionNode)) {
    if (node.type !== 'CallExpression' || node.callee.type !== 'MemberExpression') continue;
    if (!KEYED_UPDATES.has(memberPropertyName(node.callee) ?? '')) continue;
    const model = receiverName(unwrapExpression(node.callee.object));
    const name = node.arguments.map((a) => keyedParameter(a)).find((n) => n !== undefined);
    if (model === undefined || name === undefined || !params.has(name) || found.has(name)) continue;
    if (modelWord(model) !== '' && modelWord(model) === modelWord(name)) found.set(name, model);
  }
  return [...found].map(([name, model]) => ({
    name,
    read: { candidates: [], node: params.get(name)!, model, locked: false, mutations: [], boundChecks: [] },
  }));
}
