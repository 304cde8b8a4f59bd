// NATS JetStream key-value buckets as `no-read-then-write` sees them: a value read from a key
// (`await kv.get(key)`, its bytes under the entry's `value`), changed in JavaScript and put back
// (`kv.put(key, bytes)`) replaces whatever another replica put in between. The safe forms check
// the revision read: `kv.update(key, bytes, entry.revision)` (fails when the key moved on),
// `kv.create(key, bytes)` (fails when it exists), `kv.put(key, bytes, { previousSeq })`.
// Plain data, read by rules/no-read-then-write/kv-bucket-site.ts.

/** Modules a NATS client (and its key-value view) is imported from: nats.js v2 and the v3 packages. */
export const NATS_KV_MODULES: readonly string[] = [
  'nats',
  'nats.ws',
  '@nats-io/kv',
  '@nats-io/jetstream',
  '@nats-io/transport-node',
  '@nats-io/transport-deno',
  '@nats-io/nats-core',
];

/** Text every such module's name holds: a file without it imports none (the cheap text test). */
export const NATS_MODULE_WORD = 'nats';

/** A bucket handle's read of one key, and its unconditional write (`value`: the index of the bytes written). */
export const NATS_KV_READ = 'get';
export const NATS_KV_WRITE = { method: 'put', value: 1 } as const;

/** The field of a read's entry that holds the stored bytes (`entry.value`). */
export const NATS_KV_ENTRY_VALUE = 'value';

/** The compare-and-set forms. */
export const NATS_KV_ATOMIC_METHODS: readonly string[] = ['update', 'create'];

/** A put option that makes it a compare-and-set on the revision read (`put(k, v, { previousSeq: entry.revision })`). */
export const NATS_KV_EXPECTED_REVISION = 'previousSeq';

/**
 * What a bucket handle is named or typed (`kv`, `rateKv`, `this.bucket`, `: KV`): asked only in a
 * file that imports a NATS module.
 */
export const NATS_KV_HANDLE_NAME = /kv|bucket/i;
export const NATS_KV_HANDLE_TYPE = /^(?:KV|Kv|KeyValue)$/;

/** The bucket as a library of `no-read-then-write` (orm-reads-writes.ts), with the atomic form its message names. */
export const NATS_KV_READS_WRITES = {
  library: 'natsKv' as const,
  modules: NATS_KV_MODULES,
  reads: [NATS_KV_READ],
  writes: [NATS_KV_WRITE.method] as readonly string[],
  atomicMethods: NATS_KV_ATOMIC_METHODS,
  lockingMethods: [] as readonly string[],
  atomicForm:
    '`kv.update(key, value, entry.revision)`, a compare-and-set on the revision read, retried when the key moved on (`kv.create` for a first value)',
};

/**
 * Methods that turn a value into bytes or back without changing what it holds: `TextEncoder` /
 * `TextDecoder` (`decoder.decode(entry.value)`) and NATS codecs (`StringCodec().encode(s)`,
 * `JSONCodec().decode(bytes)`). Followed as the value itself when its receiver is not a read.
 */
export const BYTE_CODING_METHODS: readonly string[] = ['encode', 'decode'];

/** A NATS entry's own decoders (`entry.json()`, `entry.string()`): the value it holds. */
export const KV_ENTRY_DECODERS: readonly string[] = ['json', 'string'];
