// The function a web framework calls for one request, around a node: a route method's handler
// (`app.post('/x', …)`, `@Post()`), a tRPC procedure's resolver, a Next.js route export or server
// action. What runs there runs once per request, on the one replica that took it — not on every
// replica by a timer or at start. `runsPerRequest` also counts a handler known by its parameters
// (`(req, res)`, registered in another module) and a function of the file only handlers call.
// Knowledge: src/knowledge/request-handlers.ts.
import type { TSESTree } from '@typescript-eslint/utils';
import { memberPropertyName } from './ast/property-names.js';
import { decoratorName } from './ast/decorator-name.js';
import { isFunctionNode, type FunctionNode } from './sql/enclosing-function.js';
import { methodChain, receiverName, unwrap } from './sql/method-chain.js';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import type { DetectContext } from './detect-context.js';
import { callsOfExport } from './modules/importers.js';
import { projectPath } from './source/project-path.js';
import { isTestFilePath } from '../src/knowledge/file-conventions.js';
import {
  HANDLER_REQUEST_PARAMETER,
  HANDLER_RESPONSE_PARAMETER,
  PROCEDURE_NAME,
  PROCEDURE_RESOLVERS,
  ROUTE_DECORATORS,
  ROUTE_EXPORTS,
  ROUTE_METHODS,
  SERVER_ACTION_DIRECTIVE,
} from '../src/knowledge/request-handlers.js';

type Node = TSESTree.Node;

/** `'/groups/:id'` or a template starting with `/`: a route path. */
function isRoutePath(node: Node | undefined): boolean {
  if (node?.type === 'Literal') return typeof node.value === 'string' && node.value.startsWith('/');
  return node?.type === 'TemplateLiteral' && (node.quasis[0]?.value.cooked ?? '').startsWith('/');
}

const hasDirective = (body: readonly Node[]): boolean =>
  body.some((s) => s.type === 'ExpressionStatement' && 'directive' in s && s.directive === SERVER_ACTION_DIRECTIVE);

/** The export a function is (`export async function POST`, `export const approve = async () => …`), by name. */
function exportedName(fn: FunctionNode): string | undefined {
  if (fn.type === 'FunctionDeclaration') return fn.parent?.type === 'ExportNamedDeclaration' ? fn.id?.name : undefined;
  const declarator = fn.parent;
  if (declarator?.type !== 'VariableDeclarator' || declarator.init !== fn || declarator.id.type !== 'Identifier') return undefined;
  return declarator.parent?.parent?.type === 'ExportNamedDeclaration' ? declarator.id.name : undefined;
}

/** Whether a web framework calls `fn` for one request (knowledge: src/knowledge/request-handlers.ts). */
function isRequestHandler(fn: FunctionNode, program: TSESTree.Program): boolean {
  const parent = fn.parent;
  if (parent?.type === 'MethodDefinition' && parent.value === fn)
    // espree gives a JavaScript class's methods no `decorators`.
    return (parent.decorators ?? []).some((d) => ROUTE_DECORATORS.has(decoratorName(d) ?? ''));
  if (parent?.type === 'CallExpression' && parent.arguments.some((a) => a === fn)) {
    const method = memberPropertyName(unwrap(parent.callee));
    if (method === undefined) return false;
    if (ROUTE_METHODS.has(method)) return parent.arguments[0] !== fn && isRoutePath(parent.arguments[0]);
    if (!PROCEDURE_RESOLVERS.has(method)) return false;
    return methodChain(parent).some((link) => PROCEDURE_NAME.test(receiverName(link.object) ?? ''));
  }
  const exported = exportedName(fn);
  if (exported === undefined) return false;
  if (ROUTE_EXPORTS.has(exported)) return true;
  return hasDirective(program.body) || (fn.body.type === 'BlockStatement' && hasDirective(fn.body.body));
}

/** The request handler a node runs in (the nearest one around it), or `undefined`. */
export function requestHandlerAround(node: Node, program: TSESTree.Program): FunctionNode | undefined {
  for (let current = node.parent; current; current = current.parent)
    if (isFunctionNode(current) && isRequestHandler(current, program)) return current;
  return undefined;
}

/** Whether `fn` takes a request and its response by name (`(req, res)`, `(request, reply)`): a handler whose route is registered elsewhere. */
function takesRequestAndResponse(fn: FunctionNode): boolean {
  const [request, response] = fn.params;
  return (
    request?.type === 'Identifier' &&
    response?.type === 'Identifier' &&
    HANDLER_REQUEST_PARAMETER.test(request.name) &&
    HANDLER_RESPONSE_PARAMETER.test(response.name)
  );
}

/** Whether a node runs inside a request handler: a route's, or one known by its `(req, res)` parameters. */
function inHandler(node: Node, program: TSESTree.Program): boolean {
  for (let current = node.parent; current; current = current.parent)
    if (isFunctionNode(current) && (isRequestHandler(current, program) || takesRequestAndResponse(current))) return true;
  return false;
}

/** The binding of a named top-level function (`function f`, `const f = () => …`, either exported), for its callers. */
function topLevelBinding(fn: FunctionNode): { node: Node; name: string; exported: boolean } | undefined {
  const holder = fn.type === 'FunctionDeclaration' ? fn : fn.parent?.type === 'VariableDeclarator' ? fn.parent : undefined;
  const id = holder?.type === 'FunctionDeclaration' ? holder.id : holder?.type === 'VariableDeclarator' ? holder.id : undefined;
  if (!holder || id?.type !== 'Identifier') return undefined;
  const statement = holder.type === 'VariableDeclarator' ? holder.parent?.parent : holder.parent;
  if (statement?.type !== 'Program' && statement?.type !== 'ExportNamedDeclaration') return undefined;
  return { node: holder, name: id.name, exported: statement.type === 'ExportNamedDeclaration' };
}

/**
 * Whether `node` runs for one request: inside a request handler (`inHandler`), or in a top-level
 * function of the file whose every call here — and, exported, in the package's other modules
 * that are not test code, when they can be read — sits in one (`importData()` called by the import routes).
 * A function no code of the file calls is not known to serve requests.
 */
export function runsPerRequest(context: DetectContext, node: Node): boolean {
  const sourceCode = context.sourceCode as unknown as Readonly<SourceCode>;
  const program = sourceCode.ast as TSESTree.Program;
  if (inHandler(node, program)) return true;
  let fn: FunctionNode | undefined;
  for (let current = node.parent; current; current = current.parent) if (isFunctionNode(current)) fn = current;
  const binding = fn && topLevelBinding(fn);
  if (!binding) return false;
  const calledInHandler = (reference: Node): boolean =>
    reference.parent?.type === 'CallExpression' && reference.parent.callee === reference && inHandler(reference, program);
  const references = sourceCode
    .getDeclaredVariables(binding.node)
    .filter((v) => v.name === binding.name)
    .flatMap((v) => v.references.filter((r) => !r.init));
  if (references.length === 0 || !references.every((r) => calledInHandler(r.identifier as Node))) return false;
  if (!binding.exported) return true;
  // Test code calls such helpers too (a `tests/` folder included): what it calls runs in no replica.
  const isTest = (path: string) => isTestFilePath(projectPath(path, context.cwd) ?? path);
  const elsewhere = callsOfExport(context, binding.name, { includeTests: true })?.filter(({ module }) => !isTest(module.path));
  return (
    elsewhere === undefined ||
    elsewhere.every(({ module, calls }) =>
      calls.every(({ call, handed }) => !handed && inHandler(call, module.sourceCode.ast as TSESTree.Program)),
    )
  );
}
