// Writes one call away, through a project function that sends what it is handed: `const
// saveStock = async (id, values) => db.part.update(values, { where: { id } })`, `function
// changeProfile(ownerId, query) { return Profile.findOneAndUpdate({ ownerId }, query) }`. The
// function is read (this file, a project module, an injected service's method: analysis/modules)
// and asked which of its parameters it hands a library write as the values (or the update
// document) it sends; its callers' argument at that place is then the write's values, whatever the
// function is called; a parameter given whole to one field of the values written (`async put(key,
// value) { … .set({ value }) … }`) makes its argument that field's value. A function whose write
// sends values of its own, or that is out of reach, is no such write (helper-writes.ts still judges
// a helper named for the write by its name). So is a
// function that saves the document it is handed (`async persist(entry) { await entry.save(); }`):
// a loaded document changed and handed to it is saved whole.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { defineFunctionFact, projectFunctionOf, type ProjectFunction } from '../../analysis/modules/index.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { descendants } from '../../analysis/sql/descendants.js';
import type { DetectContext } from '../../analysis/detect-context.js';
import type { WriteSite, WriteValue } from './model.js';
import { mongoValues, valuesOf, writeSiteOf } from './write-site.js';
import { savedParameterReads } from './saved-parameters.js';

/** Which parameter a function sends as the values of its write, and in which form. */
export interface SentParameter {
  index: number;
  /** A MongoDB update document (`{ $set: … }`, `$inc` runs in the database), not an object of values. */
  updateDocument: boolean;
  /** A document the function saves itself (`entry.save()`): its changed fields are what is written. */
  saved?: true;
  /** The field whose value the parameter is in the object written (`.set({ value })` in `put(key, value)`). */
  field?: string;
}

/** The parameter of `names` one field of the values written is given whole (`{ value: value as unknown }`), with that field. */
function fieldParameterOf(values: readonly WriteValue[], names: readonly (string | null)[]): { index: number; field: string } | undefined {
  for (const { field, value } of values) {
    const expr = unwrapExpression(value);
    if (field === null || field.startsWith('$') || expr.type !== 'Identifier') continue;
    const index = names.indexOf(expr.name);
    if (index >= 0) return { index, field };
  }
  return undefined;
}

const nested = (node: TSESTree.Node): boolean =>
  node.type === 'FunctionDeclaration' || node.type === 'ClassDeclaration' || node.type === 'ClassExpression';

/**
 * The parameter a project function hands a library write as its values; `'own'` when its library
 * writes send values of their own (what it is handed is not written); null when it has no library write.
 */
export const sentParameterOf = defineFunctionFact<SentParameter | 'own' | null>(
  'sends a parameter as the values written',
  null,
  ({ fn, module }) => {
    const names = fn.params.map((p) =>
      p.type === 'Identifier' ? p.name : p.type === 'AssignmentPattern' && p.left.type === 'Identifier' ? p.left.name : null,
    );
    if (!fn.body || !names.some((n) => n !== null)) return null;
    const keys = module.sourceCode.visitorKeys as TSESLint.SourceCode.VisitorKeys;
    // `async persist(entry) { await entry.save(); }`: the document handed to it, saved whole.
    const saved = savedParameterReads(fn, keys).find(({ read }) => read.documentAt === undefined);
    if (saved) return { index: names.indexOf(saved.name), updateDocument: false, saved: true };
    let own = false;
    for (const node of descendants(fn.body, keys, nested)) {
      if (node.type !== 'CallExpression') continue;
      const site = writeSiteOf(node, () => false);
      if (!site) continue;
      const data = site.shape.data && unwrapExpression(site.shape.data);
      const index = data?.type === 'Identifier' ? names.indexOf(data.name) : -1;
      if (index >= 0) return { index, updateDocument: site.candidates.length === 1 && site.candidates[0] === 'mongoose' };
      // `put(key, value)` writing `{ value }`: what it is handed there is that field's value.
      const inField = fieldParameterOf(site.values, names);
      if (inField) return { ...inField, updateDocument: false };
      // Values not known, or a parameter inside them (`{ $set: { [field]: value } }`): what it is handed may be written, by a shape not followed here.
      if (!data || [data, ...descendants(data, keys)].some((n) => n.type === 'Identifier' && names.includes(n.name))) return null;
      own = true;
    }
    return own ? 'own' : null;
  },
);

/** Whether a value holds a taint, itself or in the values of an object literal (`{ $set: { list: kept } }`), `depth` levels down. */
function holdsTaint(node: TSESTree.Node, tainted: (node: TSESTree.Node) => boolean, depth: number): boolean {
  if (node.type === 'SpreadElement') return false;
  if (tainted(node)) return true;
  const value = unwrapExpression(node);
  return (
    depth > 0 &&
    value.type === 'ObjectExpression' &&
    value.properties.some((p) => holdsTaint(p.type === 'Property' ? p.value : p.argument, tainted, depth - 1))
  );
}

/**
 * The write a call of a project function that sends its argument is (`updateStock(id, next)`);
 * `false` for a function read whose library writes send values of their own (no write of what it
 * is handed, whatever its name says); null when the function is out of reach or writes no library call.
 */
export function parameterWriteSiteOf(
  context: DetectContext,
  call: TSESTree.CallExpression,
  tainted: (node: TSESTree.Node) => boolean,
): WriteSite | false | null {
  // Asked only of a call handed a value that holds a read: most calls are not, and need no module read.
  if (!call.arguments.some((a) => holdsTaint(a, tainted, 2))) return null;
  const fn: ProjectFunction | undefined = projectFunctionOf(context, call.callee);
  const sent = fn ? sentParameterOf(fn) : null;
  if (sent === 'own') return false;
  const argument = sent ? call.arguments[sent.index] : undefined;
  if (!sent || !argument || argument.type === 'SpreadElement') return null;
  const callee = unwrapExpression(call.callee);
  const nameNode = callee.type === 'MemberExpression' ? callee.property : callee;
  const filter = call.arguments.find((a, i) => i !== sent.index && a.type !== 'SpreadElement');
  return {
    candidates: sent.saved ? ['mongoose', 'sequelize'] : sent.updateDocument ? ['mongoose'] : [],
    model: null,
    node: call,
    reportNode: nameNode,
    values: sent.saved
      ? []
      : sent.field
        ? [{ field: sent.field, value: argument }]
        : sent.updateDocument
          ? mongoValues(argument)
          : valuesOf(argument),
    entities: sent.saved ? [argument] : [],
    conditions: filter ? [filter] : [],
    shape: { method: fn?.name ?? '', nameNode, data: argument, filter, helper: true },
  };
}
