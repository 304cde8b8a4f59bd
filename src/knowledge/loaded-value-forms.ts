// How a value loaded from a row is carried, copied and changed in JavaScript before it is written back
// (`new Decimal(row.amount)`, `JSON.parse(row.items)`, `[...doc.tags, t]`). Plain data; read by
// `no-read-then-write` through orm-reads-writes.ts's catalogue of reads and writes.

/**
 * Decimal libraries' wrappers, called or constructed (`Big(row.balance)`, `new Decimal(row.amount)`,
 * `new BigNumber(x)`): the wrapped value stands for the loaded field; its `plus`/`minus` are arithmetic
 * (`ARITHMETIC_METHODS`, orm-reads-writes.ts) and `toNumber()`/`toString()` hand it back (`VALUE_PASS_THROUGH_METHODS`).
 */
export const DECIMAL_WRAPPERS: readonly string[] = ['Big', 'Decimal', 'BigNumber'];

/** `JSON.parse(row.items)`: a structure decoded from a loaded field; changing it and encoding it back rewrites that field. */
export const DECODING_CALLS: readonly string[] = ['JSON.parse', 'JSON.stringify', 'structuredClone'];

/**
 * Calls that copy a structure into another form without changing what it holds
 * (`Array.from(set)`, `Object.fromEntries(map)`): the copy stands for the loaded field.
 */
export const COPYING_CALLS: readonly string[] = ['Array.from', 'Object.entries', 'Object.fromEntries', 'Object.values'];

/** Collections built from a loaded list or object (`new Set(shop.methods)`): changed and written back, they rewrite that field. */
export const COLLECTION_CONSTRUCTORS: readonly string[] = ['Set', 'Map'];

/**
 * Methods that give a new list from the list they are called on (`tags.map(trim)`,
 * `groups.toSpliced(i, 1)`): from a loaded field, the result stands for that field.
 */
export const LIST_COPY_METHODS: readonly string[] = ['map', 'flatMap', 'concat', 'toSpliced', 'toSorted', 'toReversed', 'with'];

/**
 * Methods that change a loaded list (or a `Set` / `Map` built from it), in place or into a new
 * list: written back to the field whole, the result replaces what another writer added.
 */
export const LIST_CHANGING_METHODS: readonly string[] = [
  'push',
  'unshift',
  'splice',
  'pop',
  'shift',
  'sort',
  'reverse',
  'filter',
  'slice',
  'add',
  'delete',
  'set',
  ...LIST_COPY_METHODS,
];

/**
 * Mongoose array methods that mark the whole array changed: the document's `save()` then sends the
 * array with `$set`, over what another writer added since the load (`push`, `pull`, `addToSet`
 * send `$push` / `$pull` / `$addToSet` instead).
 */
export const DOCUMENT_ARRAY_REWRITES: readonly string[] = ['splice', 'pop', 'shift', 'unshift', 'sort', 'reverse'];

/** Array methods that return an element (or elements) of the array they are called on. */
export const ELEMENT_METHODS: readonly string[] = ['find', 'findLast', 'filter', 'at', 'slice', 'sort', 'reverse'];

/** Methods that convert a value without changing it (`row.balance.toNumber()`). */
export const VALUE_PASS_THROUGH_METHODS: readonly string[] = ['toNumber', 'toString', 'valueOf', 'toFixed', 'toJSON'];

/**
 * A domain entity's own methods that change an amount it holds by what they are handed
 * (`wallet.topUp(amount)`, `points.use(cost)`, `account.withdraw(sum)`): called on a loaded row as a
 * statement of its own, the row's value is changed in JavaScript, as `row.balance += amount` does.
 * Sequelize's instance `increment` / `decrement` are atomic and are not among them; nor are the
 * `add…` / `remove…` association mixins (only the bare verbs are).
 */
export const AMOUNT_CHANGING_METHODS: readonly string[] = [
  'add',
  'subtract',
  'deduct',
  'deposit',
  'withdraw',
  'topUp',
  'charge',
  'use',
  'spend',
  'consume',
  'credit',
  'debit',
  'increase',
  'decrease',
  'reduce',
  'refund',
  'earn',
  'redeem',
];
