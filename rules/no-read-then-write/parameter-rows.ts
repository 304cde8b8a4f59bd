// A row read in one function and written back by another function of the same file it is handed to:
//
//   async increaseViewCount(share) {
//     await this.prisma.share.update({ where: { id: share.id }, data: { views: share.views + 1 } });
//   }
//   async open(id) {
//     const share = await this.prisma.share.findFirst({ where: { id } });
//     await this.increaseViewCount(share);
//   }
//
// A call by name (`name(row)`, `this.name(row)`) of a function of this file (declared, bound to a
// `const`, a method of the class around the call) whose argument names the one `const`/`let` bound
// to a read (`const share = await …findFirst(…)`, a loader helper's row), not locked: the function
// is walked alone, its parameter holding that read, and what it writes back from it is a finding.
// The calls are noted as the file is traversed (a cheap test of their shape); the rest is asked
// only of them, with the file's top-level functions and each class's methods indexed once.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import type { RuleListener } from '@typescript-eslint/utils/ts-eslint';
import { enclosingFunction, isFunctionNode, type FunctionNode } from '../../analysis/sql/enclosing-function.js';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { DATA_ACCESS_OBJECT_NAME, namesDatabaseAccess } from '../../src/knowledge/database-access.js';
import type { ReadSite, ReadThenWriteFacts, ReadThenWriteFinding } from './model.js';
import { ReadThenWriteEngine, type EngineOptions } from './taint-engine.js';
import { readSiteOf } from './read-site.js';

type Node = TSESTree.Node;

/** A function of this file handed a row read by its caller, at parameter `param`. */
export interface HandedRow {
  fn: FunctionNode;
  param: TSESTree.Identifier;
  read: ReadSite;
}

/** Whether `call` may hand a row to a function of this file: `name(x)` or `this.name(x)` with a plain name among its arguments. */
export function mayHandRow(call: TSESTree.CallExpression): boolean {
  const callee = call.callee;
  const named = callee.type === 'Identifier' || (callee.type === 'MemberExpression' && callee.object.type === 'ThisExpression');
  return named && call.arguments.some((a) => a.type === 'Identifier');
}

/** The function a top-level statement declares as `name` (also exported), or undefined. */
function declaredFunction(statement: Node, name: string): FunctionNode | undefined {
  const node =
    statement.type === 'ExportNamedDeclaration' || statement.type === 'ExportDefaultDeclaration' ? statement.declaration : statement;
  if (node?.type === 'FunctionDeclaration') return node.id?.name === name ? node : undefined;
  if (node?.type !== 'VariableDeclaration') return undefined;
  for (const declarator of node.declarations) {
    if (declarator.id.type !== 'Identifier' || declarator.id.name !== name || !declarator.init) continue;
    const init = unwrapExpression(declarator.init);
    return isFunctionNode(init) ? init : undefined;
  }
  return undefined;
}

/** The top-level functions of a program by name (indexed once per program). */
const topLevelFunctions = new WeakMap<TSESTree.Program, Map<string, FunctionNode>>();
function topLevelFunction(program: TSESTree.Program, name: string): FunctionNode | undefined {
  let byName = topLevelFunctions.get(program);
  if (!byName) {
    topLevelFunctions.set(program, (byName = new Map()));
    for (const statement of program.body) {
      const node =
        statement.type === 'ExportNamedDeclaration' || statement.type === 'ExportDefaultDeclaration' ? statement.declaration : statement;
      const names =
        node?.type === 'FunctionDeclaration'
          ? [node.id?.name]
          : node?.type === 'VariableDeclaration'
            ? node.declarations.map((d) => (d.id.type === 'Identifier' ? d.id.name : undefined))
            : [];
      for (const each of names) {
        const fn = each === undefined || byName.has(each) ? undefined : declaredFunction(statement, each);
        if (each !== undefined && fn) byName.set(each, fn);
      }
    }
  }
  return byName.get(name);
}

/** The function a call by name reaches in this file: a method of the class around `this.name(…)`, a top-level function for `name(…)`. */
export function calledFunction(call: TSESTree.CallExpression, program: TSESTree.Program): FunctionNode | undefined {
  const callee = call.callee;
  if (callee.type === 'Identifier') return topLevelFunction(program, callee.name);
  const name = callee.type === 'MemberExpression' ? memberPropertyName(callee) : undefined;
  let body: Node | undefined = call.parent;
  while (body && body.type !== 'ClassBody') body = body.parent;
  if (name === undefined || body?.type !== 'ClassBody') return undefined;
  let methods = classMethods.get(body);
  if (!methods) {
    classMethods.set(body, (methods = new Map()));
    for (const member of body.body) {
      if (member.type === 'MethodDefinition' && member.key.type === 'Identifier' && isFunctionNode(member.value))
        methods.set(member.key.name, member.value);
    }
  }
  return methods.get(name);
}

/** The methods of a class body by name (indexed once per class). */
const classMethods = new WeakMap<TSESTree.ClassBody, Map<string, FunctionNode>>();

/** The initializer of the one `const`/`let` declaration `name` refers to (through the scope analysis), or undefined. */
function declaredValue(name: TSESTree.Identifier, sourceCode: Readonly<TSESLint.SourceCode>): TSESTree.Expression | undefined {
  const defs = scopeVariable(sourceCode, name)?.defs;
  const node = defs?.length === 1 ? defs[0]?.node : undefined;
  return node?.type === 'VariableDeclarator' && node.id.type === 'Identifier' && node.init ? node.init : undefined;
}

/** The rows `calls` hand to functions of this file, one per function and parameter (the first call's read). */
export function handedRowsOf(
  calls: readonly TSESTree.CallExpression[],
  sourceCode: Readonly<TSESLint.SourceCode>,
  helperRead: (call: TSESTree.CallExpression) => ReadSite | null,
  mayWrite: (fn: FunctionNode) => boolean,
): HandedRow[] {
  const out: HandedRow[] = [];
  // Asked once per function: a file's calls reach the same few functions many times.
  const writes = new Map<FunctionNode, boolean>();
  const mayWriteOnce = (fn: FunctionNode): boolean => {
    let answer = writes.get(fn);
    if (answer === undefined) writes.set(fn, (answer = mayWrite(fn)));
    return answer;
  };
  for (const call of calls) {
    const fn = calledFunction(call, sourceCode.ast);
    // A function that can write nothing back is not asked about its arguments (each a scope lookup, maybe a helper's).
    if (!fn || !mayWriteOnce(fn) || fn === enclosingFunction(call)) continue;
    call.arguments.forEach((argument, index) => {
      const param = fn.params[index];
      // A handle (`db`, `userRepository`) is never a row; a parameter already handed one is not asked again.
      if (argument.type !== 'Identifier' || param?.type !== 'Identifier') return;
      if (namesDatabaseAccess(param.name) || DATA_ACCESS_OBJECT_NAME.test(param.name) || out.some((h) => h.param === param)) return;
      const init = declaredValue(argument, sourceCode);
      const value = init && unwrapExpression(init, { await: true });
      if (value?.type !== 'CallExpression') return;
      const read = readSiteOf(value) ?? helperRead(value);
      if (read && !read.locked) out.push({ fn, param, read });
    });
  }
  return out;
}

/** Runs `listeners` (`Type` / `Type:exit`, as ESLint calls them) over `fn` and everything in it. */
export function walkFunction(fn: FunctionNode, listeners: RuleListener, visitorKeys: TSESLint.SourceCode.VisitorKeys): void {
  const handlers = listeners as Record<string, ((node: Node) => void) | undefined>;
  const walk = (node: Node): void => {
    handlers[node.type]?.(node);
    for (const key of visitorKeys[node.type] ?? []) {
      const value = (node as unknown as Record<string, unknown>)[key];
      for (const child of Array.isArray(value) ? value : [value]) {
        if (child && typeof (child as Node).type === 'string') walk(child as Node);
      }
    }
    handlers[`${node.type}:exit`]?.(node);
  };
  walk(fn);
}

/**
 * The findings of the functions `calls` hand a row to: each walked alone, its parameter holding
 * the caller's read, by an engine of its own (the file's walk never sees the two together).
 */
export function handedRowFindings(
  calls: readonly TSESTree.CallExpression[],
  options: EngineOptions,
  keep: (facts: ReadThenWriteFacts) => boolean,
  mayWrite: (fn: FunctionNode) => boolean,
): ReadThenWriteFinding[] {
  if (calls.length === 0) return [];
  const out: ReadThenWriteFinding[] = [];
  const helperRead = (call: TSESTree.CallExpression): ReadSite | null => options.helperReadOf?.(call) ?? null;
  for (const row of handedRowsOf(calls, options.sourceCode, helperRead, mayWrite)) {
    const engine = new ReadThenWriteEngine({ ...options, handedRows: new Map([[row.param, row.read]]) });
    walkFunction(row.fn, engine.listeners(), options.sourceCode.visitorKeys);
    out.push(...engine.findings(keep));
  }
  return out;
}
