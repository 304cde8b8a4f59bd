// The function a web framework calls for one request, around a node: a route method's handler
// (`app.post('/x', …)`, `@Post()`), a tRPC procedure's resolver, a Next.js route export or server
// action, a pages-router API route's default export (`pages/api/…`). What runs there runs once per
// request, on the one replica that took it — not on every replica by a timer or at start.
// `servesRequest` also counts a handler known by its parameters (`(req, res)`, registered in
// another module; not a middleware handed to `use`), and `runsPerRequest` a function of the file only handlers call.
// Knowledge: src/knowledge/request-handlers.ts.
import type { TSESTree } from '@typescript-eslint/utils';
import { memberPropertyName } from './ast/property-names.js';
import { outermostCallOf } from './ast/method-chain.js';
import { decoratorName } from './ast/decorator-name.js';
import { isFunctionNode, type FunctionNode } from './sql/enclosing-function.js';
import { methodChain, receiverName, unwrap } from './sql/method-chain.js';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import type { DetectContext } from './detect-context.js';
import { callsOfExport } from './modules/importers.js';
import { projectPath } from './source/project-path.js';
import { isTestFilePath } from '../src/knowledge/file-conventions.js';
import {
  GRAPHQL_FIELD_TYPE_KEY,
  GRAPHQL_OPERATION_TYPES,
  GRAPHQL_RESOLVER_KEY,
  HANDLER_REQUEST_PARAMETER,
  HANDLER_RESPONSE_PARAMETER,
  MIDDLEWARE_METHODS,
  PAGES_API_FOLDERS,
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

/** Whether a project path lies in a pages-router API folder (`pages/api/`, `src/pages/api/admin/`). */
export function isPagesApiPath(path: string): boolean {
  const folders = path.split(/[\\/]/).slice(0, -1);
  return folders.some((folder, i) => PAGES_API_FOLDERS.every((name, j) => folders[i + j] === name));
}

/** The names `export default` hands a function by (`export default handler`, `export default withAuth(handler)`). */
function defaultExportedNames(program: TSESTree.Program): Set<string> {
  const names = new Set<string>();
  for (const statement of program.body) {
    if (statement.type !== 'ExportDefaultDeclaration') continue;
    let value: Node = statement.declaration;
    // Wrappers (`withAuth(handler)`, `withSentry(cors(handler))`) hand the request on to their argument.
    while (value.type === 'CallExpression' && value.arguments.length > 0) value = value.arguments[0]!;
    if (value.type === 'Identifier') names.add(value.name);
  }
  return names;
}

/** Whether `fn` is the default export of a pages-router API module, written there or named by it, bare or wrapped. */
function isDefaultExport(fn: FunctionNode, program: TSESTree.Program): boolean {
  // Handed to wrappers (`withSession(cors(async (req, res) => …))`), never called there (an IIFE runs as the module loads).
  let child: Node = fn;
  while (child.parent?.type === 'CallExpression' && child.parent.arguments.some((a) => a === child)) child = child.parent;
  if (child.parent?.type === 'ExportDefaultDeclaration') return true;
  const name =
    fn.type === 'FunctionDeclaration'
      ? fn.id?.name
      : fn.parent?.type === 'VariableDeclarator' && fn.parent.id.type === 'Identifier'
        ? fn.parent.id.name
        : undefined;
  return name !== undefined && defaultExportedNames(program).has(name);
}

/** Whether `call` is the value of an exported `const` (`export const x = call`). */
function isExportedValue(call: TSESTree.CallExpression): boolean {
  const declarator = call.parent;
  return (
    declarator?.type === 'VariableDeclarator' && declarator.init === call && declarator.parent?.parent?.type === 'ExportNamedDeclaration'
  );
}

/** Whether a web framework calls `fn` for one request (knowledge: src/knowledge/request-handlers.ts); `pagesApi`: the file is a pages-router API route. */
function isRequestHandler(fn: FunctionNode, program: TSESTree.Program, pagesApi = false): boolean {
  const parent = fn.parent;
  if (parent?.type === 'MethodDefinition' && parent.value === fn)
    // espree gives a JavaScript class's methods no `decorators`.
    return (parent.decorators ?? []).some((d) => ROUTE_DECORATORS.has(decoratorName(d) ?? ''));
  if (parent?.type === 'CallExpression' && parent.arguments.some((a) => a === fn)) {
    const method = memberPropertyName(unwrap(parent.callee));
    if (method === undefined) return false;
    if (ROUTE_METHODS.has(method)) return parent.arguments[0] !== fn && isRoutePath(parent.arguments[0]);
    // `export const approve = actionClient.inputSchema(s).action(async ({ parsedInput }) => …)` in a
    // 'use server' module: a server action built by a wrapper library, run once per client call.
    if (hasDirective(program.body) && isExportedValue(outermostCallOf(parent))) return true;
    if (!PROCEDURE_RESOLVERS.has(method)) return false;
    return methodChain(parent).some((link) => PROCEDURE_NAME.test(receiverName(link.object) ?? ''));
  }
  if (pagesApi && isDefaultExport(fn, program)) return true;
  const exported = exportedName(fn);
  if (exported === undefined) return false;
  if (ROUTE_EXPORTS.has(exported)) return true;
  return hasDirective(program.body) || (fn.body.type === 'BlockStatement' && hasDirective(fn.body.body));
}

/** The request handler a node runs in (the nearest one around it), or `undefined`; `path`, the file's path in its project, tells a pages-router API route. */
export function requestHandlerAround(node: Node, program: TSESTree.Program, path?: string): FunctionNode | undefined {
  const pagesApi = path !== undefined && isPagesApiPath(path);
  for (let current = node.parent; current; current = current.parent)
    if (isFunctionNode(current) && isRequestHandler(current, program, pagesApi)) return current;
  return undefined;
}

/** Whether `fn` is handed to `app.use(…)`: a middleware, on the way to every route. */
const isMiddleware = (fn: FunctionNode): boolean =>
  fn.parent?.type === 'CallExpression' &&
  fn.parent.arguments.some((a) => a === fn) &&
  MIDDLEWARE_METHODS.has(memberPropertyName(unwrap(fn.parent.callee)) ?? '');

/** Whether `fn` takes a request and its response by name (`(req, res)`, `(request, reply)`): a handler whose route is registered elsewhere, not a middleware. */
function takesRequestAndResponse(fn: FunctionNode): boolean {
  const [request, response] = fn.params;
  return (
    request?.type === 'Identifier' &&
    response?.type === 'Identifier' &&
    HANDLER_REQUEST_PARAMETER.test(request.name) &&
    HANDLER_RESPONSE_PARAMETER.test(response.name) &&
    !isMiddleware(fn)
  );
}

/** The key a property is written with (`resolve`, `'Mutation'`). */
const keyOf = (property: TSESTree.Property): string | undefined =>
  property.key.type === 'Identifier' && !property.computed
    ? property.key.name
    : property.key.type === 'Literal'
      ? String(property.key.value)
      : undefined;

/** Whether `fn` is a GraphQL field's resolver (knowledge: GRAPHQL_RESOLVER_KEY, GRAPHQL_OPERATION_TYPES). */
function isGraphqlResolver(fn: FunctionNode): boolean {
  const property = fn.parent;
  if (property?.type !== 'Property' || property.value !== fn || property.parent.type !== 'ObjectExpression') return false;
  const options = property.parent;
  if (keyOf(property) === GRAPHQL_RESOLVER_KEY)
    return options.properties.some((p) => p.type === 'Property' && keyOf(p) === GRAPHQL_FIELD_TYPE_KEY);
  const root = options.parent;
  return root?.type === 'Property' && root.value === options && GRAPHQL_OPERATION_TYPES.has(keyOf(root) ?? '');
}

/**
 * The nearest function around `node` that runs for one request: a route's handler
 * (`requestHandlerAround`), one known by its `(req, res)` parameters, or a GraphQL field's resolver.
 */
export function oneRequestHandlerAround(node: Node, program: TSESTree.Program, path?: string): FunctionNode | undefined {
  const pagesApi = path !== undefined && isPagesApiPath(path);
  for (let current = node.parent; current; current = current.parent)
    if (
      isFunctionNode(current) &&
      (isRequestHandler(current, program, pagesApi) || takesRequestAndResponse(current) || isGraphqlResolver(current))
    )
      return current;
  return undefined;
}

/** Whether a node runs inside a request handler: a route's (a pages-router API route's default export when `pagesApi`), or one known by its `(req, res)` parameters. */
function inHandler(node: Node, program: TSESTree.Program, pagesApi: boolean): boolean {
  for (let current = node.parent; current; current = current.parent)
    if (isFunctionNode(current) && (isRequestHandler(current, program, pagesApi) || takesRequestAndResponse(current))) return true;
  return false;
}

/** Whether the file of `context` is a pages-router API route, by its path inside the project. */
const isPagesApiFile = (context: DetectContext): boolean => isPagesApiPath(projectPath(context.filename, context.cwd) ?? context.filename);

/**
 * Whether `node` runs inside a function a web framework calls for one request: a route's handler,
 * a pages-router API route's default export, or a handler known by its `(req, res)` parameters.
 */
export function servesRequest(context: DetectContext, node: Node): boolean {
  return inHandler(node, context.sourceCode.ast as TSESTree.Program, isPagesApiFile(context));
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
  const pagesApi = isPagesApiFile(context);
  if (inHandler(node, program, pagesApi)) return true;
  let fn: FunctionNode | undefined;
  for (let current = node.parent; current; current = current.parent) if (isFunctionNode(current)) fn = current;
  const binding = fn && topLevelBinding(fn);
  if (!binding) return false;
  const calledInHandler = (reference: Node): boolean =>
    reference.parent?.type === 'CallExpression' && reference.parent.callee === reference && inHandler(reference, program, pagesApi);
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
      calls.every(
        ({ call, handed }) => !handed && inHandler(call, module.sourceCode.ast as TSESTree.Program, isPagesApiFile(module.context)),
      ),
    )
  );
}
