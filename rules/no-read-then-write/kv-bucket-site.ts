// NATS JetStream key-value buckets as the taint engine sees them, beside Redis (redis-site.ts): a
// value read from a key (`await kv.get(key)`, its bytes under `entry.value`) and a value put back
// (`kv.put(key, bytes)`). A bucket handle counts only in a file that imports a NATS module, by its
// name (`kv`, `this.bucket`) or its type (`: KV`). Keys are compared as redis-keys.ts builds them,
// within the handle's own text: another bucket's key is another key. A put with the revision
// expected (`{ previousSeq }`), `update(key, v, revision)` and `create` are compare-and-sets; a
// put under a lock or after one was taken in its function is serialised.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import {
  NATS_KV_ENTRY_VALUE,
  NATS_KV_EXPECTED_REVISION,
  NATS_KV_HANDLE_NAME,
  NATS_KV_HANDLE_TYPE,
  NATS_KV_MODULES,
  NATS_KV_READ,
  NATS_KV_WRITE,
  NATS_MODULE_WORD,
} from '../../src/knowledge/kv-buckets.js';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import { typeReferenceName } from '../../analysis/ast/type-reference-name.js';
import { outermostCallOf } from '../../analysis/ast/method-chain.js';
import { memberPropertyName, propertyKeyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import type { TokenLike } from '../../analysis/source/string-text.js';
import type { ReadSite, WriteSite } from './model.js';
import { redisKeyOf } from './redis-keys.js';
import { keyLabel, redisReadSiteOf, redisWriteSiteOf, serialised, underLock, type RedisContext } from './redis-site.js';
import { GAP, inComment } from './write-candidates.js';
import { redisWriteCallOffsets } from './mentions.js';

export { REDIS_READ_NAMES, writesBackTo, type RedisContext } from './redis-site.js';

type SourceCode = Readonly<TSESLint.SourceCode>;

const MODULES: ReadonlySet<string> = new Set(NATS_KV_MODULES);
const PUT_CALL = new RegExp(`\\.${GAP}${NATS_KV_WRITE.method}${GAP}\\(`);
const PUT_CALLS = new RegExp(PUT_CALL.source, 'g');
const GET_CALL = new RegExp(`\\.${GAP}${NATS_KV_READ}${GAP}\\(`);

/** Whether the raw text names a NATS module and calls a `.put(` (comments too): without both, `kvBucketWriteOffsets` finds none. */
export function mayPutIntoKvBucket(text: string): boolean {
  return text.includes(NATS_MODULE_WORD) && PUT_CALL.test(text);
}

/** Where the file's code writes to Redis (mentions.ts) or puts into a NATS bucket, in order. */
export function keyValueWriteOffsets(text: string, comments: readonly TokenLike[]): number[] {
  const puts = kvBucketWriteOffsets(text, comments);
  const writes = redisWriteCallOffsets(text, comments);
  return puts.length === 0 ? writes : [...writes, ...puts].sort((a, b) => a - b);
}

/**
 * Where the file's code puts a value into a bucket (`.put(`), when its text names a NATS module and
 * calls a `.get(` too; `[]` otherwise (one substring test for most files).
 */
function kvBucketWriteOffsets(text: string, comments: readonly TokenLike[]): number[] {
  if (!text.includes(NATS_MODULE_WORD) || !GET_CALL.test(text)) return [];
  const offsets: number[] = [];
  PUT_CALLS.lastIndex = 0;
  for (let match = PUT_CALLS.exec(text); match; match = PUT_CALLS.exec(text)) {
    if (!inComment(comments, match.index)) offsets.push(match.index);
  }
  return offsets;
}

const importsNatsCache = new WeakMap<TSESTree.Program, boolean>();

/** Whether the file imports (or requires at its top level) a NATS module. */
function importsNats(sourceCode: SourceCode): boolean {
  const program = sourceCode.ast;
  let found = importsNatsCache.get(program);
  if (found === undefined) {
    found = program.body.some((statement) => {
      if (statement.type === 'ImportDeclaration') return MODULES.has(String(statement.source.value));
      if (statement.type !== 'VariableDeclaration') return false;
      return statement.declarations.some((d) => {
        const init = d.init && unwrapExpression(d.init);
        const source =
          init?.type === 'CallExpression' && init.callee.type === 'Identifier' && init.callee.name === 'require'
            ? init.arguments[0]
            : undefined;
        return source?.type === 'Literal' && MODULES.has(String(source.value));
      });
    });
    importsNatsCache.set(program, found);
  }
  return found;
}

/** Whether `receiver` is a bucket handle: named for one (`kv`, `this.bucket`) or declared `: KV`. */
function isBucketHandle(receiver: TSESTree.Node, sourceCode: SourceCode): boolean {
  const expr = unwrapExpression(receiver);
  const name = expr.type === 'Identifier' ? expr.name : expr.type === 'MemberExpression' ? memberPropertyName(expr) : undefined;
  if (name === undefined) return false;
  if (NATS_KV_HANDLE_NAME.test(name)) return true;
  if (expr.type !== 'Identifier') return false;
  return (scopeVariable(sourceCode, expr)?.defs ?? []).some((def) => {
    const id = def.node.type === 'VariableDeclarator' ? def.node.id : def.type === 'Parameter' ? def.name : undefined;
    const type = typeReferenceName((id as { typeAnnotation?: TSESTree.TSTypeAnnotation } | undefined)?.typeAnnotation);
    return type !== undefined && NATS_KV_HANDLE_TYPE.test(type);
  });
}

/** The bucket handle `call` is a `method` of, with the key it names as compared (the handle's text first), or null. */
function bucketCall(call: TSESTree.CallExpression, method: string, sourceCode: SourceCode): { key: string; name: TSESTree.Node } | null {
  const callee = unwrapExpression(call.callee);
  if (callee.type !== 'MemberExpression' || memberPropertyName(callee) !== method) return null;
  if (!importsNats(sourceCode) || !isBucketHandle(callee.object, sourceCode)) return null;
  const key = redisKeyOf(call.arguments[0], sourceCode);
  return key === null ? null : { key: `${sourceCode.getText(callee.object).replace(/\s+/g, '')}\u0001${key}`, name: callee.property };
}

/** `await kv.get(key)`: the entry read, or null. */
function kvReadSiteOf(call: TSESTree.CallExpression, sourceCode: SourceCode): ReadSite | null {
  if (call.parent?.type !== 'AwaitExpression') return null;
  const found = bucketCall(call, NATS_KV_READ, sourceCode);
  if (!found) return null;
  // The entry's `value` holds what was stored (`entry.revision`, `entry.key` are none of it).
  const site: ReadSite = {
    candidates: ['natsKv'],
    node: call,
    model: null,
    locked: false,
    mutations: [],
    boundChecks: [],
    redisKeys: [found.key],
  };
  site.documentAt = NATS_KV_ENTRY_VALUE;
  return site;
}

/** `put(k, v, { previousSeq: entry.revision })`: a compare-and-set. */
function expectsRevision(call: TSESTree.CallExpression): boolean {
  const options = call.arguments[NATS_KV_WRITE.value + 1];
  return (
    options?.type === 'ObjectExpression' &&
    options.properties.some((p) => p.type === 'Property' && propertyKeyName(p) === NATS_KV_EXPECTED_REVISION)
  );
}

/** `kv.put(key, bytes)`: the write, or null. */
function kvWriteSiteOf(call: TSESTree.CallExpression, sourceCode: SourceCode): WriteSite | null {
  const found = bucketCall(call, NATS_KV_WRITE.method, sourceCode);
  const written = call.arguments[NATS_KV_WRITE.value];
  if (!found || !written || written.type === 'SpreadElement' || expectsRevision(call)) return null;
  if (underLock(call) || serialised(call, sourceCode)) return null;
  const values = [{ field: keyLabel(call.arguments[0], sourceCode), value: written, redisKey: found.key }];
  return {
    candidates: ['natsKv'],
    model: null,
    node: outermostCallOf(call),
    reportNode: found.name,
    values,
    entities: [],
    conditions: [],
    shape: { method: NATS_KV_WRITE.method, nameNode: found.name, data: written, filter: undefined },
  };
}

/** A key-value read: a Redis command or a NATS bucket's `get`. */
export function keyValueReadSiteOf(call: TSESTree.CallExpression, context: RedisContext): ReadSite | null {
  return redisReadSiteOf(call, context) ?? kvReadSiteOf(call, context.sourceCode);
}

/** A key-value write: a Redis command or a NATS bucket's `put`. */
export function keyValueWriteSiteOf(call: TSESTree.CallExpression, context: RedisContext): WriteSite | null {
  return redisWriteSiteOf(call, context) ?? kvWriteSiteOf(call, context.sourceCode);
}
