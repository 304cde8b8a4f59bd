// The function a web framework calls for one request, around a node: a route method's handler
// (`app.post('/x', …)`, `@Post()`), a tRPC procedure's resolver, a Next.js route export or server
// action. What runs there runs once per request, on the one replica that took it — not on every
// replica by a timer or at start. Knowledge: src/knowledge/request-handlers.ts.
import type { TSESTree } from '@typescript-eslint/utils';
import { memberPropertyName } from './ast/property-names.js';
import { decoratorName } from './ast/decorator-name.js';
import { isFunctionNode, type FunctionNode } from './sql/enclosing-function.js';
import { methodChain, receiverName, unwrap } from './sql/method-chain.js';
import {
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
