// Reads of scheduled work, known by name for code read without types: a read-named call on a client
// of something outside (`axios.get`, `db.plan.findMany`, `pool.query('SELECT …')`), a GET, a query
// built and read, a model class's read, a client built only to read through, a getter, and a project
// function named for a computation. Read by the host-local walk (host-local-work.ts).
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import {
  ACTION_WORDS,
  COMPUTE_VERBS,
  QUERY_BUILDER_STEPS,
  READ_HTTP_METHODS,
  READ_VERBS,
  SERVICE_PATH,
  SQL_RUNNERS,
  TRIGGER_URL_WORDS,
} from '../../src/knowledge/host-local.js';
import { scopeVariable } from '../ast/scope-variable.js';
import { memberPropertyName, propertyKeyName } from '../ast/property-names.js';
import { methodChainOf, outermostCallOf } from '../ast/method-chain.js';
import { isAwaited, isExternalReceiver } from './external-effects.js';
import { callsModelClass, createsInProcessValue, isClaimSql, isWriteSql } from './work-intent.js';
import { nameWords } from '../ast/name-words.js';

const has = (list: readonly string[], word: string | undefined): boolean => word !== undefined && list.includes(word);

/**
 * A URL written out (a string, or a template's text) that runs work when fetched: a path of this
 * service, or named for a job. On a client kept on the instance (`this.axios.get('/queue')`) a path
 * is relative to the base URL that client was built with (a server-side client has no origin of its
 * own): only a job's name makes it a trigger.
 */
function isTriggerUrl(node: TSESTree.Node | undefined, onOwnClient = false): boolean {
  const text =
    node?.type === 'Literal' && typeof node.value === 'string'
      ? node.value
      : node?.type === 'TemplateLiteral'
        ? node.quasis.map((q) => q.value.cooked ?? q.value.raw).join(' ')
        : undefined;
  return text !== undefined && ((!onOwnClient && SERVICE_PATH.test(text)) || TRIGGER_URL_WORDS.test(text));
}

/** `this.axios`, `this.http`: a client held in a field of the instance. */
const isInstanceClient = (callee: TSESTree.Node): boolean =>
  callee.type === 'MemberExpression' && callee.object.type === 'MemberExpression' && callee.object.object.type === 'ThisExpression';

/** `fetch(url)`, `fetch(url, { headers })`, `fetch(url, { method: 'GET' })`: no writing method. */
export function isReadingFetch(call: TSESTree.CallExpression): boolean {
  if (isTriggerUrl(call.arguments[0])) return false;
  const options = call.arguments[1];
  if (!options) return true;
  if (options.type !== 'ObjectExpression') return false;
  return options.properties.every((p) => {
    if (p.type !== 'Property') return false;
    if (propertyKeyName(p) !== 'method') return true;
    return p.value.type === 'Literal' && READ_HTTP_METHODS.includes(String(p.value.value).toUpperCase());
  });
}

/** `get`, `findMany`, `count`, `getQueue`; `query('SELECT …')`. */
export function isReadCall(call: TSESTree.CallExpression, method: string): boolean {
  if (SQL_RUNNERS.includes(method)) {
    const text = call.arguments[0];
    const sql =
      text?.type === 'Literal' && typeof text.value === 'string'
        ? text.value
        : text?.type === 'TemplateLiteral'
          ? text.quasis.map((q) => q.value.raw).join(' ')
          : undefined;
    return sql !== undefined && /^\s*select\b/i.test(sql) && !isWriteSql(sql) && !isClaimSql(sql);
  }
  const words = nameWords(method);
  if (isTriggerUrl(call.arguments[0], isInstanceClient(call.callee))) return false;
  return has(READ_VERBS, words[0]) && !words.slice(1).some((w) => ACTION_WORDS.includes(w));
}

/** A call `client.getQueue()` / `client.items.list()` whose method reads, on a receiver chain rooted at `root`. */
function isReadThrough(root: TSESTree.Identifier): boolean {
  let chain: TSESTree.Node = root;
  while (chain.parent?.type === 'MemberExpression' && chain.parent.object === chain) chain = chain.parent;
  const call = chain.parent;
  if (chain === root || call?.type !== 'CallExpression' || call.callee !== chain) return false;
  const method = memberPropertyName(chain as TSESTree.MemberExpression);
  return method !== undefined && isReadCall(call, method);
}

/**
 * A client built in the work and only read through (`const api = new QueueApi(server);
 * api.getQueue()`): every use of the `const` is a read-named call on it. Its methods cannot be
 * followed, but a write through it would be named for the write.
 */
export function isReadOnlyClient(sourceCode: SourceCode, created: TSESTree.NewExpression): boolean {
  const declarator = created.parent;
  if (declarator?.type !== 'VariableDeclarator' || declarator.init !== created || declarator.id.type !== 'Identifier') return false;
  if (declarator.parent?.type !== 'VariableDeclaration' || declarator.parent.kind !== 'const') return false;
  const variable = scopeVariable(sourceCode, declarator.id);
  const uses = variable?.references.filter((r) => r.identifier !== declarator.id) ?? [];
  return uses.length > 0 && uses.every((r) => isReadThrough(r.identifier as TSESTree.Identifier));
}

/**
 * A call of a query built on a client and read (`em.createQueryBuilder().from(User, 'u').where(…).getCount()`):
 * every method before the last only shapes the query, and the last one reads.
 */
export function readsThroughBuilder(call: TSESTree.CallExpression): boolean {
  const { links, root } = methodChainOf(outermostCallOf(call));
  const last = links.at(-1);
  if (links.length < 2 || last?.name === undefined || !isReadCall(last.call, last.name)) return false;
  const steps = links.slice(0, -1);
  return steps.every((l) => has(QUERY_BUILDER_STEPS, l.name) || createsInProcessValue(l.name)) && isExternalReceiver(root);
}

/**
 * A model class's read (`await Sail.find({ … })`, `await Ban.findAll()`), a query started on one and
 * only shaped (`Model.query().select('path')`, Objection), or a read on one shaped after
 * (`Loan.find({ … }).populate('owner').lean()`, Mongoose): a read of the table, whatever it returns.
 */
export function readsThroughModelClass(
  call: TSESTree.CallExpression,
  method: string,
  importedModel: (name: TSESTree.Identifier) => boolean = () => false,
): boolean {
  if (!isReadCall(call, method)) return readsThroughModelChain(call, importedModel);
  if (callsModelClass(call)) return true;
  // `LOAN.find({ … })`, `orderModel.find({ … })` with the name imported from a model file (`../loan.model`, `../models/order`).
  const callee = call.callee;
  const criteria = call.arguments[0];
  if (
    callee.type === 'MemberExpression' &&
    callee.object.type === 'Identifier' &&
    isAwaited(call) &&
    (criteria === undefined || criteria.type === 'ObjectExpression') &&
    importedModel(callee.object)
  )
    return true;
  return readsThroughModelChain(call, importedModel);
}

function readsThroughModelChain(call: TSESTree.CallExpression, importedModel: (name: TSESTree.Identifier) => boolean): boolean {
  const outermost = outermostCallOf(call);
  const { links, root } = methodChainOf(outermost);
  const [start, ...steps] = links;
  if (root.type !== 'Identifier' || start?.name === undefined || steps.length === 0) return false;
  if (!/^[A-Z][A-Za-z0-9]*[a-z]/.test(root.name) && !importedModel(root)) return false;
  if (start.name !== 'query' || start.call.arguments.length !== 0) {
    const criteria = start.call.arguments[0];
    return (
      isAwaited(outermost) &&
      (criteria === undefined || criteria.type === 'ObjectExpression') &&
      isReadCall(start.call, start.name) &&
      steps.every((l) => has(QUERY_BUILDER_STEPS, l.name))
    );
  }
  return steps.every((l) => has(QUERY_BUILDER_STEPS, l.name) || (l.name !== undefined && isReadCall(l.call, l.name)));
}

/** A read-named method called for its value and not awaited (`const status = agent.getCurrentStatus()`): a getter of this process's state. */
export function isSyncRead(call: TSESTree.CallExpression, method: string): boolean {
  const parent = call.parent;
  if (isAwaited(call) || parent?.type === 'ExpressionStatement' || parent?.type === 'MemberExpression') return false;
  return isReadCall(call, method);
}

/** `convertRatesToList`, `formatDate`, `toDto`: named for a computation, and for nothing more (`parseAndStore` is more). */
export function namesComputation(name: string): boolean {
  const words = nameWords(name);
  return has(COMPUTE_VERBS, words[0]) && !words.slice(1).some((w) => ACTION_WORDS.includes(w));
}
