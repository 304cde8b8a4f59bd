// Redis reads and writes as the taint engine sees them: a value read from a key (`await
// redis.get(k)`, `hGet(h, f)`, `hGetAll(h)`, `mget(a, b)`, `json.get(k)`) and a value written
// to one (`set`, `setex`, `hset`, `hmset`, `json.set`). A read counts only when awaited on a
// receiver that is a Redis client by the file's own evidence (redis-clients.ts); a write only
// when it is not conditional (`SET … NX`), not after a WATCH, an isolated client, a lock taken or a
// claim checked in its function, and not in a callback run under a lock. A write queued in a MULTI
// or a pipeline (`redis.multi().set(…)`, `const tx = redis.pipeline(); tx.set(…)`) is still a
// write: without a WATCH, EXEC runs it whatever another replica wrote since the read.
// Keys are compared as the text they build (redis-keys.ts): a value written to the key it was
// read from (the same hash field, or the same hash when either side names no field) is a
// read-then-write; to another key it is not.
import { typeReferenceName } from '../../analysis/ast/type-reference-name.js';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { GUARDS } from '../../src/knowledge/guards.js';
import {
  LOCK_ACQUIRE_CALLS,
  LOCK_WRAPPER_CALL,
  REDIS_CLIENT_FACTORIES,
  REDIS_CLIENT_GENERIC_NAMES,
  REDIS_CLIENT_NAME,
  REDIS_OPTIMISTIC_CALLS,
  REDIS_VALUE_READS,
  REDIS_VALUE_WRITES,
  type RedisValueCommand,
} from '../../src/knowledge/redis-clients.js';
import { outermostCallOf } from '../../analysis/ast/method-chain.js';
import { memberPropertyName, propertyKeyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { isFunctionNode } from '../../analysis/sql/enclosing-function.js';
import type { ReadSite, WriteSite, WriteValue } from './model.js';
import { redisKeyOf } from './redis-keys.js';

type Node = TSESTree.Node;

/** Method names of every Redis read and write (the engine asks about a call only when its name is one). */
export const REDIS_READ_NAMES: ReadonlySet<string> = new Set(REDIS_VALUE_READS.map((command) => command.method));
export const REDIS_WRITE_NAMES: ReadonlySet<string> = new Set(REDIS_VALUE_WRITES.map((command) => command.method));

const GENERIC_NAMES: ReadonlySet<string> = new Set(REDIS_CLIENT_GENERIC_NAMES);
/** A claim the runtime checks (`if (!(await claimOnce(…))) return;`): only the replica that won goes on. */
const CHECK_GUARDS = GUARDS.flatMap((guard) => (guard.kind === 'check' ? guard.path.slice(-1) : []));
/** Before a write in its function: WATCH or MULTI, a lock taken, a claim checked. */
const SERIALISED = new RegExp(
  String.raw`\.\s*(?:${[...REDIS_OPTIMISTIC_CALLS, ...LOCK_ACQUIRE_CALLS].join('|')})\s*\(|(?<![\w$])(?:${CHECK_GUARDS.join('|')})\s*\(`,
);
/** The separator of a hash and its field in a key; `*` stands for every field. */
const FIELD = '\u0000';
const ANY_FIELD = '*';

export interface RedisContext {
  sourceCode: Readonly<TSESLint.SourceCode>;
  /** Whether the file imports a Redis client module (then `createClient()` and `client` count). */
  importsRedis: () => boolean;
}

function decoratedAsRedis(decorators: readonly TSESTree.Decorator[] | undefined): boolean {
  return (decorators ?? []).some((decorator) => {
    const expr = decorator.expression.type === 'CallExpression' ? decorator.expression.callee : decorator.expression;
    return expr.type === 'Identifier' && REDIS_CLIENT_NAME.test(expr.name);
  });
}

/** The names a Redis client is made by in the catalogue (`Cluster`, `createClient`), other than the modules' own default. */
const FACTORY_NAMES: ReadonlySet<string> = new Set(REDIS_CLIENT_FACTORIES.flatMap((factory) => factory.path.slice(-1)));

/** Whether a declared value makes a Redis client: `new Redis(…)`, `new IORedis.Cluster(…)`, `createClient(…)` from a Redis module. */
function makesClient(init: Node | null | undefined, context: RedisContext): boolean {
  if (!init) return false;
  const expr = unwrapExpression(init);
  if (expr.type === 'AwaitExpression') return makesClient(expr.argument, context);
  if (expr.type !== 'NewExpression' && expr.type !== 'CallExpression') return false;
  const callee = unwrapExpression(expr.callee);
  const name = callee.type === 'Identifier' ? callee.name : callee.type === 'MemberExpression' ? memberPropertyName(callee) : undefined;
  if (name === undefined) return false;
  if (expr.type === 'NewExpression' && REDIS_CLIENT_NAME.test(name)) return true;
  // `createClient(…).connect()` hands the client back in node-redis v4/v5.
  if (expr.type === 'CallExpression' && name === 'connect' && callee.type === 'MemberExpression')
    return makesClient(callee.object, context);
  return FACTORY_NAMES.has(name) && context.importsRedis();
}

/** Whether a parameter (plain, or a constructor's `private readonly redis: Redis`) is a Redis client by type or decorator. */
function redisParameter(param: Node): boolean {
  const target = param.type === 'TSParameterProperty' ? param.parameter : param;
  const decorators = (param as { decorators?: TSESTree.Decorator[] }).decorators;
  const annotation = (target as { typeAnnotation?: TSESTree.TSTypeAnnotation }).typeAnnotation;
  const type = typeReferenceName(annotation);
  return decoratedAsRedis(decorators) || (type !== undefined && REDIS_CLIENT_NAME.test(type));
}

/** `this.name` in a class: a field or constructor parameter declared, typed, injected or assigned as a Redis client. */
function classMemberIsClient(node: Node, name: string, context: RedisContext): boolean {
  let body: Node | undefined = node.parent;
  while (body && body.type !== 'ClassBody') body = body.parent;
  if (!body) return false;
  for (const member of body.body) {
    if (member.type === 'PropertyDefinition' && !member.computed && member.key.type === 'Identifier' && member.key.name === name) {
      const type = typeReferenceName(member.typeAnnotation);
      if (decoratedAsRedis(member.decorators) || (type !== undefined && REDIS_CLIENT_NAME.test(type)) || makesClient(member.value, context))
        return true;
    }
    if (member.type !== 'MethodDefinition' || member.kind !== 'constructor') continue;
    for (const param of member.value.params) {
      const id = param.type === 'TSParameterProperty' ? param.parameter : undefined;
      const own =
        id?.type === 'Identifier' ? id.name : id?.type === 'AssignmentPattern' && id.left.type === 'Identifier' ? id.left.name : undefined;
      if (own === name && redisParameter(param)) return true;
    }
    for (const statement of member.value.body?.body ?? []) {
      if (statement.type !== 'ExpressionStatement' || statement.expression.type !== 'AssignmentExpression') continue;
      const { left, right } = statement.expression;
      if (
        left.type === 'MemberExpression' &&
        left.object.type === 'ThisExpression' &&
        memberPropertyName(left) === name &&
        makesClient(right, context)
      )
        return true;
    }
  }
  return false;
}

/** A local name declared as a Redis client: `const client = createClient()`, `redis: Redis`, `new IORedis(url)`, imported from a Redis module. */
function variableIsClient(id: TSESTree.Identifier, context: RedisContext): boolean {
  const variable = scopeVariable(context.sourceCode, id);
  for (const def of variable?.defs ?? []) {
    // `import { client } from '../lib/redis'`: a binding of the project's own Redis module.
    if (def.type === 'ImportBinding' && def.parent?.type === 'ImportDeclaration' && REDIS_CLIENT_NAME.test(String(def.parent.source.value)))
      return true;
    if (def.node.type === 'VariableDeclarator') {
      const type = def.node.id.type === 'Identifier' ? typeReferenceName(def.node.id.typeAnnotation) : undefined;
      if ((type !== undefined && REDIS_CLIENT_NAME.test(type)) || makesClient(def.node.init, context)) return true;
    }
    if (def.type === 'Parameter') {
      const type = typeReferenceName((def.name as { typeAnnotation?: TSESTree.TSTypeAnnotation }).typeAnnotation);
      if (type !== undefined && REDIS_CLIENT_NAME.test(type)) return true;
    }
  }
  return false;
}

/** Whether `receiver` is a Redis client by the evidence the file gives. */
export function isRedisClient(receiver: Node, context: RedisContext): boolean {
  const expr = unwrapExpression(receiver);
  // `redis.client`, `this.redisService.client`: a member of something named for Redis.
  for (let part: Node = expr; ;) {
    const name = part.type === 'Identifier' ? part.name : part.type === 'MemberExpression' ? memberPropertyName(part) : undefined;
    if (name !== undefined && REDIS_CLIENT_NAME.test(name)) return true;
    if (part.type !== 'MemberExpression') break;
    part = unwrapExpression(part.object);
  }
  if (expr.type === 'Identifier') {
    return variableIsClient(expr, context) || (GENERIC_NAMES.has(expr.name) && context.importsRedis());
  }
  if (expr.type === 'MemberExpression' && expr.object.type === 'ThisExpression') {
    const name = memberPropertyName(expr);
    if (name === undefined) return false;
    return classMemberIsClient(expr, name, context) || (GENERIC_NAMES.has(name) && context.importsRedis());
  }
  return false;
}

/** Calls that open a batch whose commands are queued and sent at `exec()`: MULTI/EXEC, a pipeline. */
const BATCH_OPENERS: ReadonlySet<string> = new Set(['multi', 'pipeline']);

/**
 * The Redis client a batch is opened on, when `receiver` is one: `redis.multi()`,
 * `redis.pipeline().incr(a)` (commands queued before), or a `const` holding such a batch.
 */
function batchClient(receiver: Node, context: RedisContext, depth = 0): Node | null {
  let expr = unwrapExpression(receiver);
  if (expr.type === 'Identifier' && depth === 0) {
    const variable = scopeVariable(context.sourceCode, expr);
    const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
    if (def?.node.type !== 'VariableDeclarator' || def.parent?.type !== 'VariableDeclaration' || def.parent.kind !== 'const') return null;
    if (!def.node.init) return null;
    expr = unwrapExpression(def.node.init);
  }
  while (expr.type === 'CallExpression') {
    const callee = unwrapExpression(expr.callee);
    if (callee.type !== 'MemberExpression') return null;
    if (BATCH_OPENERS.has(memberPropertyName(callee) ?? '')) return isRedisClient(callee.object, context) ? callee.object : null;
    expr = unwrapExpression(callee.object);
  }
  return null;
}

/** The command `call` is, with the client it is sent on: `redis.get(k)`, `client.json.set(k, '$', v)`, `redis.multi().set(k, v)`. */
function commandOf(
  call: TSESTree.CallExpression,
  commands: readonly RedisValueCommand[],
  context: RedisContext,
): { command: RedisValueCommand; nameNode: Node } | null {
  const callee = unwrapExpression(call.callee);
  if (callee.type !== 'MemberExpression') return null;
  const method = memberPropertyName(callee);
  const object = unwrapExpression(callee.object);
  const json = object.type === 'MemberExpression' && memberPropertyName(object) === 'json';
  const command = commands.find((c) => c.method === method && !!c.json === json);
  if (!command) return null;
  const client = json && object.type === 'MemberExpression' ? object.object : object;
  return isRedisClient(client, context) || batchClient(client, context) ? { command, nameNode: callee.property } : null;
}

/** A hash field named by an expression, as compared: its text without spaces. */
function keyText(node: Node | undefined, sourceCode: Readonly<TSESLint.SourceCode>): string | null {
  if (!node || node.type === 'SpreadElement') return null;
  return sourceCode.getText(node).replace(/\s+/g, '');
}

/** How a key is named in the message: a string's value, a template's text, a short expression. */
export function keyLabel(node: Node | undefined, sourceCode: Readonly<TSESLint.SourceCode>): string | null {
  if (!node || node.type === 'SpreadElement') return null;
  const expr = unwrapExpression(node);
  const text =
    expr.type === 'Literal' && typeof expr.value === 'string'
      ? expr.value
      : expr.type === 'TemplateLiteral'
        ? sourceCode.getText(expr).slice(1, -1)
        : sourceCode.getText(expr);
  return text.length <= 60 ? text : null;
}

/** The Redis read `call` is (awaited: a Map's `get` is not), or null. */
export function redisReadSiteOf(call: TSESTree.CallExpression, context: RedisContext): ReadSite | null {
  if (call.parent?.type !== 'AwaitExpression') return null;
  const found = commandOf(call, REDIS_VALUE_READS, context);
  if (!found) return null;
  const { command } = found;
  const { sourceCode } = context;
  let keys: (string | null)[];
  if (command.keys === 'all') {
    const first = call.arguments[0];
    const list = call.arguments.length === 1 && first?.type === 'ArrayExpression' ? first.elements : call.arguments;
    keys = list.map((key) => redisKeyOf(key ?? undefined, sourceCode));
  } else {
    const key = redisKeyOf(call.arguments[0], sourceCode);
    const hash = command.method.toLowerCase().startsWith('h');
    const argument = command.field === undefined ? undefined : call.arguments[command.field];
    const field = argument ? fieldKey(argument, sourceCode) : ANY_FIELD;
    keys = [key === null || !hash ? key : `${key}${FIELD}${field}`];
  }
  if (keys.length === 0 || keys.some((key) => key === null)) return null;
  return { candidates: ['redis'], node: call, model: null, locked: false, mutations: [], boundChecks: [], redisKeys: keys as string[] };
}

/** `SET k v NX` (ioredis), `set(k, v, { NX: true })` / `{ condition: 'NX' }` (node-redis): only one caller wins. */
function conditional(call: TSESTree.CallExpression): boolean {
  const isNx = (node: Node): boolean => node.type === 'Literal' && typeof node.value === 'string' && /^(?:NX|XX)$/i.test(node.value);
  return call.arguments.some(
    (argument) =>
      isNx(argument) ||
      (argument.type === 'ObjectExpression' &&
        argument.properties.some((p) => p.type === 'Property' && (/^(?:NX|XX)$/i.test(propertyKeyName(p) ?? '') || isNx(p.value)))),
  );
}

/** Whether `node` runs in a callback of a lock wrapper (`redlock.using(keys, ttl, async () => …)`, `runExclusive(key, fn)`). */
export function underLock(node: Node): boolean {
  for (let at: Node | undefined = node.parent; at; at = at.parent) {
    if (!isFunctionNode(at)) continue;
    const call = at.parent;
    if (call?.type !== 'CallExpression' || !call.arguments.includes(at as TSESTree.CallExpressionArgument)) continue;
    const callee = unwrapExpression(call.callee);
    const name = callee.type === 'Identifier' ? callee.name : callee.type === 'MemberExpression' ? memberPropertyName(callee) : undefined;
    if (name !== undefined && LOCK_WRAPPER_CALL.test(name)) return true;
  }
  return false;
}

/**
 * Whether the function holding `node` WATCHes a key or queues a MULTI (optimistic: EXEC fails
 * when the key changed), takes a lock or checks a claim before it.
 */
export function serialised(node: Node, sourceCode: Readonly<TSESLint.SourceCode>): boolean {
  let fn: Node | undefined = node.parent;
  while (fn && !isFunctionNode(fn)) fn = fn.parent;
  return SERIALISED.test(sourceCode.text.slice(fn?.range[0] ?? 0, node.range[0]));
}

/** Values of a hash write: `hset(h, f, v, f2, v2)`, `hSet(h, { f: v, ...rest })`, `hmset(h, obj)`. */
function hashValues(
  key: string,
  args: readonly TSESTree.CallExpressionArgument[],
  sourceCode: Readonly<TSESLint.SourceCode>,
): WriteValue[] {
  const first = args[1];
  if (!first || first.type === 'SpreadElement') return [];
  const value = (field: string, label: string | null, node: Node): WriteValue => ({
    field: label,
    value: node,
    redisKey: `${key}${FIELD}${field}`,
  });
  const expr = unwrapExpression(first);
  if (args.length === 2) {
    if (expr.type !== 'ObjectExpression') return [value(ANY_FIELD, null, expr)];
    return expr.properties.map((property) => {
      if (property.type === 'SpreadElement') return value(ANY_FIELD, null, property.argument);
      const name = property.computed ? undefined : propertyKeyName(property);
      const field = name !== undefined ? JSON.stringify(name) : (keyText(property.key, sourceCode) ?? ANY_FIELD);
      return value(field, name ?? keyLabel(property.key, sourceCode), property.value);
    });
  }
  const out: WriteValue[] = [];
  for (let i = 1; i + 1 < args.length; i += 2) {
    const field = args[i]!;
    const written = args[i + 1]!;
    if (written.type === 'SpreadElement') continue;
    out.push(value(fieldKey(field, sourceCode), keyLabel(field, sourceCode), written));
  }
  return out;
}

/** A hash field as compared: a string's value quoted (`'count'` and `"count"` are one field), else its text. */
function fieldKey(node: Node, sourceCode: Readonly<TSESLint.SourceCode>): string {
  const expr = node.type === 'SpreadElement' ? node : unwrapExpression(node);
  if (expr.type === 'Literal' && typeof expr.value === 'string') return JSON.stringify(expr.value);
  return keyText(expr, sourceCode) ?? ANY_FIELD;
}

/** The Redis write `call` is, or null. */
export function redisWriteSiteOf(call: TSESTree.CallExpression, context: RedisContext): WriteSite | null {
  const found = commandOf(call, REDIS_VALUE_WRITES, context);
  if (!found) return null;
  const { command, nameNode } = found;
  const { sourceCode } = context;
  if (conditional(call)) return null;
  const key = redisKeyOf(call.arguments[0], sourceCode);
  if (key === null) return null;
  let values: WriteValue[];
  if (command.value !== undefined) {
    const written = call.arguments[command.value];
    if (!written || written.type === 'SpreadElement') return null;
    values = [{ field: keyLabel(call.arguments[0], sourceCode), value: written, redisKey: key }];
  } else {
    values = hashValues(key, call.arguments, sourceCode);
  }
  if (values.length === 0 || underLock(call) || serialised(call, sourceCode)) return null;
  return {
    candidates: ['redis'],
    model: null,
    node: outermostCallOf(call),
    reportNode: nameNode,
    values,
    entities: [],
    conditions: [],
    shape: { method: command.method, nameNode, data: values[0]?.value, filter: undefined },
  };
}

function split(key: string): [string, string] {
  const at = key.indexOf(FIELD);
  return at < 0 ? [key, ANY_FIELD] : [key.slice(0, at), key.slice(at + 1)];
}

/** Whether a value written under `written` goes to a key the read read (`readKeys`): the same key, or the same hash field (either side may name every field). */
function sameRedisKey(readKeys: readonly string[], written: string): boolean {
  const [hash, field] = split(written);
  return readKeys.some((key) => {
    const [readHash, readField] = split(key);
    return readHash === hash && (readField === field || readField === ANY_FIELD || field === ANY_FIELD);
  });
}

/** Whether `value` is written back where `read` read it: a Redis value to one of its keys, a row's value anywhere but Redis. */
export function writesBackTo(read: ReadSite, value: WriteValue): boolean {
  if (read.redisKeys === undefined || value.redisKey === undefined) return read.redisKeys === undefined && value.redisKey === undefined;
  return sameRedisKey(read.redisKeys, value.redisKey);
}
