// A migration run inside a closure an exported factory hands out: `export const makeStore = (url)
// => { const db = drizzle(pool); return [db, async () => { await migrate(db, { … }) }] as const; }`.
// Calling the factory runs nothing; the run is wherever a caller calls the closure it takes
// (`const [, applyChanges] = makeStore(url); await applyChanges();`). So the callers of the factory
// are read for the slot of its result the closure sits in: a caller that takes only the client
// (`const [db] = makeStore(url)`) runs no migration; one that takes the closure is judged by its
// role (a tool, a test, a migrate entrypoint), or, when it only passes the closure on as an export
// of its own, by the callers of that export. A use the layer does not follow (the result stored or
// handed on whole, a closure taken and called in service code) is a replica's run.
import type { TSESTree } from '@typescript-eslint/utils';
import type { DetectContext } from '../utils/create-rule.js';
import { callsOfExport, type ExportCalls } from '../../analysis/modules/importers.js';
import type { ProjectModule } from '../../analysis/modules/index.js';
import { declaredVariables } from '../../analysis/ast/declared-variables.js';
import { returnedExpressions } from '../../analysis/ast/returned-expressions.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { propertyKeyName } from '../../analysis/ast/property-names.js';
import { isToolOrTestModule } from './exempt-file.js';

type Node = TSESTree.Node;
/** Where a closure sits in a factory's result: its index in a returned array, its key in a returned object. */
export type Slot = number | string;

/** Who takes the closure and runs it: tools or tests, or service code (or a use not followed). */
export interface ClosureRunners {
  tools: boolean;
  service: boolean;
}

const SERVICE: ClosureRunners = { tools: false, service: true };

const isFunction = (node: Node): node is TSESTree.FunctionLike =>
  node.type === 'FunctionExpression' || node.type === 'ArrowFunctionExpression' || node.type === 'FunctionDeclaration';

/** The slot of `factory`'s result that the innermost function around `node` is, when that function is handed out whole. */
export function handedOutSlot(node: Node, factory: Node): Slot | undefined {
  let closure: Node | undefined = node.parent;
  while (closure && !isFunction(closure)) closure = closure.parent;
  const fn = factory.type === 'VariableDeclarator' ? factory.init && unwrapExpression(factory.init) : factory;
  if (!closure || !fn || !isFunction(fn) || closure === fn) return undefined;
  const holder = closure.parent;
  const container = holder?.type === 'Property' ? holder.parent : holder;
  if (!container || !returnedExpressions(fn).some((returned) => unwrapExpression(returned) === container)) return undefined;
  if (container.type === 'ArrayExpression') return container.elements.indexOf(closure as TSESTree.Expression);
  return holder?.type === 'Property' && holder.value === closure ? propertyKeyName(holder) : undefined;
}

/** The name a caller binds the slot to (`const [, apply] = make()`); undefined when it takes no such slot, null for a use not followed. */
function takenName(call: TSESTree.CallExpression, slot: Slot): TSESTree.Identifier | undefined | null {
  let result: Node = call;
  while (result.parent?.type === 'AwaitExpression' || result.parent?.type === 'TSAsExpression') result = result.parent;
  const parent = result.parent;
  if (parent?.type === 'ExpressionStatement') return undefined;
  if (parent?.type !== 'VariableDeclarator' || parent.init !== result) return null;
  const pattern = parent.id;
  let target: Node | null | undefined;
  if (pattern.type === 'ArrayPattern' && typeof slot === 'number') {
    if (pattern.elements.some((element) => element?.type === 'RestElement')) return null;
    target = pattern.elements[slot];
  } else if (pattern.type === 'ObjectPattern' && typeof slot === 'string') {
    if (pattern.properties.some((property) => property.type === 'RestElement')) return null;
    target = pattern.properties.find((property) => property.type === 'Property' && propertyKeyName(property) === slot)?.value;
  } else return null;
  if (target == null) return undefined;
  return target.type === 'Identifier' ? target : null;
}

/** Whether every module in `callers` is a tool or a test, as runners: service code otherwise. */
function runnersAmong(callers: readonly ExportCalls[] | undefined): ClosureRunners {
  if (callers === undefined) return SERVICE;
  const service = callers.some((caller) => !isToolOrTestModule(caller.module.context));
  return { tools: !service && callers.length > 0, service };
}

/** Who runs the closure a module took as `name`: the module itself, or the callers of the export it passes it on as. */
function runnersOfTaken(module: ProjectModule, name: TSESTree.Identifier): ClosureRunners {
  if (isToolOrTestModule(module.context)) return { tools: true, service: false };
  const declarator = name.parent?.parent;
  if (declarator?.type !== 'VariableDeclarator') return SERVICE;
  const out: ClosureRunners = { tools: false, service: false };
  // `export const [db, apply] = make(url)`: exported under its own name.
  const exportedNames = declarator.parent?.parent?.type === 'ExportNamedDeclaration' ? [name.name] : [];
  for (const variable of declaredVariables(module.sourceCode, declarator, name.name)) {
    for (const reference of variable.references) {
      if (reference.init) continue;
      const use = reference.identifier.parent;
      if (use?.type !== 'ExportSpecifier') return SERVICE;
      exportedNames.push(use.exported.type === 'Identifier' ? use.exported.name : String(use.exported.value));
    }
  }
  for (const exported of exportedNames) {
    const runners = runnersAmong(callsOfExport(module.context, exported, { includeTests: true }));
    if (runners.service) return SERVICE;
    out.tools ||= runners.tools;
  }
  return out;
}

/** Who runs the closure in `slot` of what the exported factory `name` returns, read from the package's callers of the factory. */
export function closureRunners(context: DetectContext, name: string, slot: Slot): ClosureRunners {
  const callers = callsOfExport(context, name, { includeTests: true });
  if (callers === undefined) return SERVICE;
  const out: ClosureRunners = { tools: false, service: false };
  for (const caller of callers) {
    for (const use of caller.calls) {
      const taken = use.handed ? null : takenName(use.call, slot);
      if (taken === undefined) continue;
      const runners = taken === null ? SERVICE : runnersOfTaken(caller.module, taken);
      if (runners.service) return SERVICE;
      out.tools ||= runners.tools;
    }
  }
  return out;
}
