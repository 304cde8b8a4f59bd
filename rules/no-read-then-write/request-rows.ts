// The row an auth middleware loaded for the request, read in another file before the handler ran
// (`req.user`, `ctx.state.user`, `res.locals.user`, a Nest `@CurrentUser() user` or `@Req() req`
// then `req.user`): a field written back from its value (`user.credits = user.credits - cost;
// await user.save()`) loses what another request wrote since, as a row read in the handler does.
// The holder must be a parameter of a function around the use (the request a framework hands in);
// the request's other properties (`body`, `session`, `query`) are not rows
// (src/knowledge/request-rows.ts).
import type { TSESTree } from '@typescript-eslint/utils';
import {
  KOA_CONTEXT_PARAMETER,
  KOA_STATE,
  REQUEST_PARAMETER,
  REQUEST_PARAMETER_DECORATORS,
  REQUEST_ROW_PROPERTIES,
  REQUEST_ROW_TEXT,
  RESPONSE_BAG,
  RESPONSE_PARAMETER,
  ROW_PARAMETER_DECORATOR,
} from '../../src/knowledge/request-rows.js';
import { decoratorName } from '../../analysis/ast/decorator-name.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { isFunctionNode } from '../../analysis/sql/enclosing-function.js';
import type { ReadSite } from './model.js';

type Parameter = TSESTree.Parameter;

/** The identifier a parameter binds (`req`, `req = {}`, `private readonly req`), or undefined. */
function boundName(param: Parameter): TSESTree.Identifier | undefined {
  const inner = param.type === 'TSParameterProperty' ? param.parameter : param;
  const named = inner.type === 'AssignmentPattern' ? inner.left : inner;
  return named.type === 'Identifier' ? named : undefined;
}

const decorated = (param: Parameter, names: (name: string) => boolean): boolean =>
  (param.decorators ?? []).some((decorator) => names(decoratorName(decorator) ?? ''));

/** Whether `param` is the request: named for it, or handed by Nest's `@Req()`. */
const isRequestParameter = (param: Parameter, name: string): boolean =>
  REQUEST_PARAMETER.test(name) || decorated(param, (d) => REQUEST_PARAMETER_DECORATORS.has(d));

/** The parameter of a function around `node` that binds `name`, with that function's parameters; the nearest one decides. */
function parameterNamed(node: TSESTree.Node, name: string): { param: Parameter; id: TSESTree.Identifier } | undefined {
  for (let at: TSESTree.Node | undefined = node.parent; at; at = at.parent) {
    if (!isFunctionNode(at)) continue;
    for (const param of (at as TSESTree.FunctionLike).params) {
      const id = boundName(param);
      if (id?.name === name) return { param, id };
    }
  }
  return undefined;
}

/** Whether `fn` may use a request's row: it takes a request, response or Koa context and its text names such a row. */
function mayUseRequestRow(fn: TSESTree.FunctionLike, text: string): boolean {
  const holder = fn.params.some((param) => {
    const id = boundName(param);
    return (
      id !== undefined && (isRequestParameter(param, id.name) || RESPONSE_PARAMETER.test(id.name) || KOA_CONTEXT_PARAMETER.test(id.name))
    );
  });
  return holder && REQUEST_ROW_TEXT.test(text.slice(fn.range[0], fn.range[1]));
}

/** Whether the file's text names a request's row at all (the rule's text gate). */
export function mentionsRequestRow(text: string): boolean {
  return REQUEST_ROW_TEXT.test(text);
}

/** The parameters of `fn` a decorator hands the signed-in user's row (`@CurrentUser() user: User`), each as the read it stands for. */
function decoratedRowParameters(fn: TSESTree.FunctionLike): Array<{ name: string; read: ReadSite }> {
  const out: Array<{ name: string; read: ReadSite }> = [];
  for (const param of fn.params) {
    const id = boundName(param);
    if (id && decorated(param, (d) => ROW_PARAMETER_DECORATOR.test(d))) out.push({ name: id.name, read: rowRead(id) });
  }
  return out;
}

function rowRead(node: TSESTree.Identifier): ReadSite {
  return { candidates: [], node, model: null, locked: false, mutations: [], boundChecks: [] };
}

/** The rows the request parameters of one walk hold, one read per parameter and path (so changes to it add up until its save). */
export class RequestRows {
  private readonly rows = new Map<TSESTree.Identifier, Map<string, ReadSite>>();

  /** The row `holder[property]` holds (`req.user`, `ctx.state.user`, `res.locals.user`, `const { user } = req`), or null. */
  rowAt(holder: TSESTree.Node, property: string): ReadSite | null {
    if (!REQUEST_ROW_PROPERTIES.has(property)) return null;
    const expr = unwrapExpression(holder);
    if (expr.type === 'Identifier') {
      const found = parameterNamed(expr, expr.name);
      return found && isRequestParameter(found.param, found.id.name) ? this.row(found.id, property) : null;
    }
    if (expr.type !== 'MemberExpression') return null;
    const bag = memberPropertyName(expr);
    const owner = unwrapExpression(expr.object);
    if (owner.type !== 'Identifier' || (bag !== KOA_STATE && bag !== RESPONSE_BAG)) return null;
    const pattern = bag === KOA_STATE ? KOA_CONTEXT_PARAMETER : RESPONSE_PARAMETER;
    if (!pattern.test(owner.name)) return null;
    const found = parameterNamed(expr, owner.name);
    return found ? this.row(found.id, `${bag}.${property}`) : null;
  }

  /**
   * Whether a walk of `fn` must keep its names (a request's row may be used in it); the parameters
   * a decorator hands a row (`@CurrentUser() user`) are added to `entities`, the names it starts with.
   */
  heldBy(fn: TSESTree.FunctionLike, text: string, entities: Array<{ name: string; read: ReadSite }>): boolean {
    if (fn.params.length === 0) return false;
    entities.push(...decoratedRowParameters(fn));
    return mayUseRequestRow(fn, text);
  }

  /** The names a declarator binds to a request's row: `const { user } = req` (or `= ctx.state`, `= res.locals`). */
  bound(declarator: TSESTree.VariableDeclarator): Array<{ name: string; read: ReadSite }> {
    if (!declarator.init || declarator.id.type !== 'ObjectPattern') return [];
    const out: Array<{ name: string; read: ReadSite }> = [];
    for (const property of declarator.id.properties) {
      if (property.type !== 'Property' || property.computed || property.key.type !== 'Identifier') continue;
      const read = property.value.type === 'Identifier' ? this.rowAt(declarator.init, property.key.name) : null;
      if (read && property.value.type === 'Identifier') out.push({ name: property.value.name, read });
    }
    return out;
  }

  /** The row a member expression reads whole (`req.user`), or null. */
  rowOf(expr: TSESTree.MemberExpression): ReadSite | null {
    const property = memberPropertyName(expr);
    return property !== undefined && REQUEST_ROW_PROPERTIES.has(property) ? this.rowAt(expr.object, property) : null;
  }

  private row(param: TSESTree.Identifier, path: string): ReadSite {
    let byPath = this.rows.get(param);
    if (!byPath) this.rows.set(param, (byPath = new Map()));
    let read = byPath.get(path);
    if (!read) byPath.set(path, (read = rowRead(param)));
    return read;
  }
}
