// The one model `no-read-then-write` reasons about: reads (a row loaded into JavaScript), writes
// (values sent back) and taints (a local value that came from a read, maybe computed). Every
// library's ESTree shapes are turned into these by read-write-read-site / read-write-write-site.
import type { TSESTree } from '@typescript-eslint/utils';
import type { DataLibrary } from '../../src/knowledge/orm-reads-writes.js';

export type DatabaseCall = TSESTree.CallExpression | TSESTree.TaggedTemplateExpression;
/** Where a value is written: a database call, or a change to an instance a save hook writes (`doc.revisions += 1`). */
export type WrittenAt = DatabaseCall | TSESTree.AssignmentExpression | TSESTree.UpdateExpression;

/** One field written with a value computed in JavaScript from a read. */
export interface FieldChange {
  /** Column or field name; `null` when the write sends a whole object we cannot see into. */
  field: string | null;
  /** The expression (or `x++` / `x += n` mutation) that computed the value. */
  node: TSESTree.Node;
  /** `+` or `-` when the value is a simple `x ± n`, else `null`. */
  operator: '+' | '-' | null;
  /** Source text of `n` when the value is a simple `x ± n`, else `null`. */
  operand: string | null;
  /** The read field `x` the value was computed from (`fee` in `balance = row.fee + 1`); absent for `entity.f += n`. */
  readField?: string | null;
}

export interface ReadSite {
  /** Libraries this read could belong to, most likely first (`findOne` fits several). */
  candidates: DataLibrary[];
  /** The outermost call of the read (what is awaited); for a save hook, the instance parameter. */
  node: DatabaseCall | TSESTree.Identifier;
  /** The instance of a model save hook: a field changed from its own value is written back by the save itself. */
  savedByHook?: true;
  /** Model, table or entity name when it is visible. */
  model: string | null;
  /**
   * A list of rows (`findMany`): what counts is a row's field written back computed from itself
   * (`balance: row.balance - take`), not a value derived from the rows into another field.
   */
  many?: true;
  /**
   * A helper out of reach taken for a loader by its name (`getSuffixFromFormat()` may return a
   * string): only a field of what it returns is a row's value, not the value as a whole.
   */
  guessed?: true;
  /** The read locks its rows (`FOR UPDATE`, `lock:`, `.forUpdate()`): no lost update. */
  locked: boolean;
  /** Field changes made on the loaded entity (`entity.count++`), waiting for a `save`. */
  mutations: FieldChange[];
  /** Lists of the row grown in place (`row.tags.push(t)`), for a write of that field's value (list-changes.ts); a save does not flush them. */
  grown?: FieldChange[];
  /** `if (x < amount) throw` style checks on values of this read. */
  boundChecks: TSESTree.IfStatement[];
  /** Fields of this read compared in a check that leaves (`if (row.balance < n) throw`): `floor` when it leaves on a value too low. */
  checkedBounds?: CheckedBound[];
  /** A parameter that carries the document at this property (`data.profile`, saved-parameters.ts): its other properties are none of the read's. */
  documentAt?: string;
  /** A helper call not asked about yet (pending-reads.ts): asked the first time its answer matters. */
  pending?: () => ReadSite | null;
  /** Asked, and the helper returns no read: the site carries no taint. */
  none?: true;
  /**
   * The rows of a read filtered by the keys a loaded list field holds (`Groups.find({ _id: { $in:
   * account.groups } })`): a list made from them and written to that field rebuilds it (list-changes.ts).
   */
  keysOf?: { read: ReadSite; field: string };
  /** A Redis read: the keys it read (a hash field as `hash\0field`, every field `hash\0*`); only a write to one of them is written back. */
  redisKeys?: string[];
}

/** A field of a read compared in a check (bound-checks.ts): `floor` when the check guards against a value too low. */
export interface CheckedBound {
  field: string;
  check: TSESTree.IfStatement;
  floor: boolean;
  /** The check holds the write in its consequent, where it passed (`if (row.used < cap) { … }`, held-bounds.ts), rather than leaving. */
  held?: true;
}

/** A field changed in the database by a write, and whether the change lowers it (checked-bounds.ts). */
export interface AtomicChange {
  field: string;
  node: TSESTree.Node;
  lowers: boolean;
  /** The amount as written; none for an increment method's default of one (`row.increment('used')`). */
  amount: TSESTree.Node | undefined;
}

export interface WriteValue {
  field: string | null;
  value: TSESTree.Node;
  /** Where this field is named in a SQL string (`SET balance = $1`), for a narrower report. */
  loc?: TSESTree.SourceLocation;
  /** A Redis write: the key (or `hash\0field`) the value goes to. */
  redisKey?: string;
  /** The field is only the one a helper's name says (`updateBalance`): a value of another field is not this write's. */
  named?: true;
}

export interface WriteSite {
  candidates: DataLibrary[];
  /** Model, table or entity name written, when visible (a value moved to another table is not written back). */
  model: string | null;
  /** The outermost call of the write chain; for a change made in a save hook, that change. */
  node: WrittenAt;
  /** The method name (or SQL keyword) the report squiggles. */
  reportNode: TSESTree.Node;
  /** Values sent, by field. */
  values: WriteValue[];
  /** Entities saved (`repo.save(entity)`, `entity.save()`): their mutations are what is written. */
  entities: TSESTree.Node[];
  /** A unit of work's flush (MikroORM `em.flush()`): every entity its function loaded and changed is written. */
  flushesAll?: boolean;
  /** The write's filter (`where`, a Mongo filter, SQL WHERE parameters): a compare-and-set shows here. */
  conditions: TSESTree.Node[];
  /** The write call's arguments as parsed here, so a rewrite need not parse them again. */
  shape: WriteShape;
  /** An increment method's changes (`row.increment('used', { by })`, atomic-methods.ts); `instance` when called on a loaded row. */
  counted?: { changes: AtomicChange[]; instance?: TSESTree.Node };
}

/** What a write call's arguments hold. */
export interface WriteShape {
  /** The write method matched (`update`, `updateMany`, `upsert`, `save`, `updateOne`, `set`, `UPDATE` for SQL, `hook` for a save hook). */
  method: string;
  /** The method's name as written (`update` in `prisma.user.update(…)`), where a rename edits. */
  nameNode: TSESTree.Node;
  /** The node holding the values sent: Prisma `data` (or upsert `update`), a Mongo update document, a builder's or repository's values. */
  data: TSESTree.Node | undefined;
  /** The filter: Prisma `where`, a Mongo filter, TypeORM criteria, Sequelize `where`. */
  filter: TSESTree.Node | undefined;
  /** A helper of the project named for the write (`updateItemField(…)`, helper-writes.ts): no library form to rewrite. */
  helper?: true;
}

export interface Computation {
  node: TSESTree.Node;
  /** `+`, `-`, `*`, … or `call` / `template` for other computations. */
  operator: string;
  /** Source text of `n` when this is `x ± n` with `x` the read value. */
  operand: string | null;
  /** The read field the computation started from. */
  field: string | null;
  /** The field of a local object it was set to (`patch.total = row.total + n`): the field the object writes it to. */
  target?: string;
}

/** A value that came from a read, possibly changed in JavaScript on the way. */
export interface Taint {
  read: ReadSite;
  /** The read field this value is (or was taken from). */
  field: string | null;
  computed: Computation | null;
  /** A `Map` of the read's rows by key (keyed-rows.ts): `.get(key)` is one of the rows. */
  keyed?: true;
}

/** What the `atomic-counters` codemod needs to rewrite one read-then-write. */
export interface ReadThenWriteFacts {
  library: DataLibrary;
  /** The read call (outermost call of its chain: what is awaited), or the instance parameter of a save hook. */
  read: DatabaseCall | TSESTree.Identifier;
  /** The write call (outermost call of its chain), or the change made in a save hook (`writeShape.method` is `hook`). */
  write: WrittenAt;
  /** The write call's method, values and filter as the rule parsed them. */
  writeShape: WriteShape;
  /** Model, table or entity name when visible at the read. */
  model: string | null;
  /** Columns or fields written with a value computed from the read (`null` entries dropped). */
  fields: string[];
  /** Each computed value written, with its `x ± n` shape when it has one. */
  changes: FieldChange[];
  /** Operator of the first change when it is a simple `x ± n`, else `null`. */
  operator: '+' | '-' | null;
  /** Source text of `n` in the first change when it is a simple `x ± n`, else `null`. */
  operand: string | null;
  /** An `if (x < amount) throw`-style check of the read value that guards the write. */
  boundCheck: TSESTree.IfStatement | null;
  /** Whether `boundCheck` is set (the codemod must move the bound into the write's WHERE). */
  guarded: boolean;
  /** The write is already atomic, but the bound `boundCheck` tests was checked on the value read, not in the write's filter. */
  checkedBound?: true;
  /** The field checked is a state, set to a constant and saved (checked-states.ts). */
  checkedState?: true;
  /** A counter changed after that state moved (counted-transitions.ts): the counter's row is not the one read. */
  countedTransition?: true;
  /** The value is the largest stored one plus one (next-from-highest.ts): a number to allocate, not a counter to increment. */
  nextFromHighest?: true;
}

/** One read-then-write: the library it belongs to, the field first changed, where to report, and the rewrite facts. */
export interface ReadThenWriteFinding {
  library: DataLibrary;
  field: string;
  node: TSESTree.Node;
  loc: TSESTree.SourceLocation | undefined;
  facts: ReadThenWriteFacts;
}

export interface PendingFinding {
  read: ReadSite;
  write: WriteSite;
  changes: FieldChange[];
  loc: TSESTree.SourceLocation | undefined;
  /** The write changes the field in the database, but the bound was checked on the value read (checked-bounds.ts). */
  checkedBound?: TSESTree.IfStatement;
  /** A state checked on the row, then set to a constant and saved without that condition (checked-states.ts). */
  checkedState?: true;
  /** …a counter changed after the state moved (counted-transitions.ts). */
  countedTransition?: true;
  /** The amount the database adds was computed from the value read of the same field (checked-bounds.ts): a bound applied to a stale value. */
  derivedBound?: true;
}
