// The taint engine of `no-read-then-write`: walks a file once with ESLint's traversal. Each
// function gets a frame; reads bind taints to local names as declarations finish, mutations of a
// loaded entity are remembered, and writes are checked as they finish. Findings are given at the
// end of the file (when the imports say which ORM `findOne` is).
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import type { RuleListener } from '@typescript-eslint/utils/ts-eslint';
import { libraryOfModule, type DataLibrary } from '../../src/knowledge/orm-reads-writes.js';
import { setTo } from './stale-change.js';
import { staleChangeIn } from './derived-fields.js';
import { VERSION_COLUMN } from '../../src/knowledge/sql.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { comparedFieldsOf, writtenToRowsRead } from './compared-fields.js';
import { entityChangeCallOf, entityFieldChanges } from './entity-changes.js';
import { helperBoundChanges, type ParameterChange } from './helper-bound-changes.js';
import { checkedThenWritten, noteChecks } from './checked-states.js';
import type { DatabaseCall, FieldChange, PendingFinding, ReadSite, ReadThenWriteFinding, Taint, WriteSite } from './model.js';
export type { ReadThenWriteFinding } from './model.js';
import { resultIsBound } from './helper-reads.js';
import { READ_CHAIN_NAMES, readSiteOf } from './read-site.js';
import { sqlReadSiteOf, sqlUpdatedTable, sqlWriteSiteOf } from './sql-site.js';
import { TaintFrames } from './taint-frames.js';
import { changeOf, mayCarryTaintUnread, taintOf, type TaintEnvironment } from './taint.js';
import { pendingRead, settled } from './pending-reads.js';
import { inBranch } from './control-flow.js';
import { findingsOf } from './findings.js';
import { writeSiteOf } from './write-site.js';
import { incrementSiteOf } from './atomic-methods.js';
import { helperWriteSiteOf } from './helper-writes.js';
import { REDIS_READ_NAMES, keyValueReadSiteOf, keyValueWriteSiteOf, writesBackTo, type RedisContext } from './kv-bucket-site.js';
import { redisChangeOf, redisFieldSetOf, redisMutationOf, remember } from './redis-changes.js';
import { listChangeOf, noteKeysList, rebuiltListOf, rememberGrowth } from './list-changes.js';
import { hookChangeOf, saveHookInstanceOf } from './save-hooks.js';
import { listAssignedBack } from './list-assignments.js';
import { TransactionLocks, transactionCallbackOf } from './transaction-locks.js';
import { rowCopyOf } from './row-copies.js';
import { callbackSource } from './callback-rows.js';
import { savedChanges } from './unit-of-work.js';
import { namedFieldChanges } from './named-fields.js';
import { guarded, parameterReads } from './guarded.js';
import { RequestRows } from './request-rows.js';
import { bindThis } from './schema-methods.js';
import { strapiReadSiteOf, strapiWriteSiteOf } from './strapi-site.js';
import { savesAssociation } from './associations.js';
import { relockedRow } from './relocked-rows.js';
import { writtenModelOf } from './written-models.js';

export interface EngineOptions {
  sourceCode: Readonly<TSESLint.SourceCode>;
  /** Fields never reported. */
  ignoredFields: ReadonlySet<string>;
  /** Whether the file can hold SQL reads / SQL writes (a keyword pre-check): SQL text is built only then. */
  sqlReads: boolean;
  sqlWrites: boolean;
  /** The read a call of a project helper is (`await loadDocument(id)`); asked only for calls whose result is kept in a name. */
  helperReadOf?: (call: TSESTree.CallExpression) => ReadSite | null;
  /** A write through a project function that sends what it is handed (parameter-writes.ts); `false`: one read that sends its own values (no guess by its name). */
  helperWriteOf?: (call: TSESTree.CallExpression, tainted: (node: TSESTree.Node) => boolean) => WriteSite | false | null;
  /** The fields a project function changes in the database by an amount it is handed (helper-bound-changes.ts). */
  helperChangesOf?: (call: TSESTree.CallExpression) => ParameterChange[];
  /** Whether a helper call's answer can still matter (a write may follow it); without it, every one may. */
  helperMayMatter?: (call: TSESTree.CallExpression) => boolean;
  /** Whether the file can hold a Redis read-then-write (a pre-check): Redis commands are asked about only then. */
  redis?: boolean;
  /** Parameters that hold a row read by the caller (parameter-rows.ts), for a walk of the function alone. */
  handedRows?: ReadonlyMap<TSESTree.Node, ReadSite>;
}

export class ReadThenWriteEngine {
  private readonly imported = new Set<DataLibrary>();
  private readonly pending: PendingFinding[] = [];
  private readonly reads = new Map<TSESTree.Node, ReadSite | null>();
  private readonly frames: TaintFrames;
  private readonly locks = new TransactionLocks();
  private readonly env: TaintEnvironment;
  private readonly redis: RedisContext | undefined;
  private readonly requestRows = new RequestRows();

  constructor(private readonly options: EngineOptions) {
    const { sourceCode, sqlReads, helperReadOf, helperMayMatter } = options;
    const redis = (this.redis = options.redis ? { sourceCode, importsRedis: () => this.imported.has('redis') } : undefined);
    const reads = this.reads;
    const locks = this.locks;
    const settledTaint = (node: TSESTree.Node): Taint | null => settled(this.taint(node));
    const helperRead = (node: DatabaseCall): ReadSite | null => {
      if (!helperReadOf || node.type !== 'CallExpression' || !resultIsBound(node) || helperMayMatter?.(node) === false) return null;
      if (mayCarryTaintUnread(node)) return helperReadOf(node);
      // Asked only where the answer decides something (pending-reads.ts), with the locks as they stand here.
      const held = locks.heldAt(node);
      return pendingRead(node, () => {
        const found = helperReadOf(node);
        if (found && !found.locked && held(found.model)) found.locked = true;
        return found;
      });
    };
    this.env = {
      lookup: (name) => this.frames.lookup(name),
      readOf(node) {
        let site = reads.get(node);
        if (site === undefined) {
          try {
            site =
              (node.type === 'CallExpression' ? (strapiReadSiteOf(node) ?? readSiteOf(node)) : null) ??
              (sqlReads ? sqlReadSiteOf(node, sourceCode) : null) ??
              (redis && node.type === 'CallExpression' ? keyValueReadSiteOf(node, redis) : null) ??
              helperRead(node);
          } catch {
            site = null;
          }
          // Read after the same transaction wrote the row: the write's lock keeps it current.
          if (site && !site.locked && locks.holds(site.model, node)) site.locked = true;
          reads.set(node, site);
          // Rows named by a loaded list's keys (set once the read is known, so the filter's own taints do not ask for it again).
          if (site) noteKeysList(site, node, sourceCode, settledTaint);
        }
        return site?.none ? null : site;
      },
      text: (node) => sourceCode.getText(node),
      requestRow: (node) => this.requestRows.rowOf(node),
    };
    this.frames = new TaintFrames((node) => this.taint(node));
  }

  taint(node: TSESTree.Node | null | undefined): Taint | null {
    return taintOf(node, this.env);
  }
  private readonly settledTaint = (node: TSESTree.Node): Taint | null => settled(this.taint(node));

  /** The taint of a value written or saved whole: a copy of a loaded row with changed fields (row-copies.ts), or its own. */
  private wholeTaint(node: TSESTree.Node): Taint | null {
    return rowCopyOf(node, this.settledTaint) ?? settled(this.taint(node));
  }

  private readonly isLoadedEntity = (node: TSESTree.Node): boolean => {
    const t = settled(this.taint(node));
    return t !== null && !t.computed && (t.field === null || savesAssociation(node, t));
  };

  /** The association of its row a change was made through (`plan.seats -= n` after `const { plan } = account`). */
  private readonly associations = new WeakMap<FieldChange, string>();

  /** Marks the current function live when `node` is a read (what makes a function worth following). */
  private noteRead(node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression): void {
    if (node.type === 'CallExpression') {
      // Every read chain has a call named by a read or SQL method (its own, or an inner link's,
      // entered after it): others need no chain built.
      const callee = unwrapExpression(node.callee);
      const name = callee.type === 'MemberExpression' ? memberPropertyName(callee) : undefined;
      const chainRead = name !== undefined && (READ_CHAIN_NAMES.has(name) || (!!this.redis && REDIS_READ_NAMES.has(name)));
      if (!chainRead && !(this.options.helperReadOf && resultIsBound(node))) return;
    }
    if (this.env.readOf(node)) this.frames.markCurrentLive();
  }

  /** A field of a loaded entity changed in JavaScript (`entity.count++`): remembered until saved. */
  private mutate(
    target: TSESTree.MemberExpression,
    change: Omit<FieldChange, 'field'> | null,
    at: TSESTree.AssignmentExpression | TSESTree.UpdateExpression,
  ): boolean {
    if (!change) return false;
    const owner = settled(this.taint(target.object));
    if (!owner || owner.computed) return false;
    // The field assigned, not the one read (`row.valueUsd = row.amount * rate` changes `valueUsd`).
    const mutation = { ...change, field: memberPropertyName(target) ?? null };
    owner.read.mutations.push(mutation);
    if (owner.field !== null) this.associations.set(mutation, owner.field);
    const hooked = owner.read.savedByHook ? hookChangeOf(owner.read, target, mutation, at, this.options.ignoredFields) : null;
    if (hooked) this.pending.push(hooked);
    return true;
  }

  /** Whether `write` sends a value computed from a read (or saves a mutated entity); remembered as a finding. */
  checkWrite(write: WriteSite): void {
    const changes: { read: ReadSite; change: FieldChange; loc: TSESTree.SourceLocation | undefined; value?: TSESTree.Node }[] = [];
    for (const value of write.values) {
      const t = value.field === null ? this.wholeTaint(value.value) : settled(this.taint(value.value));
      if (!t || t.read.locked) continue;
      // A helper named for the field (named-fields.ts): only that field's changes.
      if (value.named) changes.push(...namedFieldChanges(value, t));
      if (value.named) continue;
      const rebuilt = rebuiltListOf(value, t);
      if (rebuilt) {
        changes.push({ ...rebuilt, loc: value.loc });
        continue;
      }
      if (!writesBackTo(t.read, value)) continue;
      const change =
        changeOf(value.field, t) ??
        (t.read.redisKeys ? redisChangeOf(value, t, this.settledTaint) : listChangeOf(value, t, this.settledTaint));
      if (change) {
        changes.push({ read: t.read, change, loc: value.loc, value: value.value });
        continue;
      }
      // `entity.count++` then `repo.update(id, { count: entity.count })` or `repo.update(id, entity)`
      const mutated = t.read.mutations.filter((m) => t.field === null || m.field === t.field);
      for (const m of mutated) changes.push({ read: t.read, change: { ...m, field: value.field ?? m.field }, loc: value.loc });
    }
    const reads = this.imported.has('mikroorm') ? this.reads : undefined;
    changes.push(...savedChanges(write, (entity) => this.wholeTaint(entity), reads, this.associations));
    // One table, or a relation loaded with the read (written-models.ts).
    const sameModel = writtenModelOf(write);
    const ignored = this.options.ignoredFields;
    const staleIn = staleChangeIn(write);
    let kept = changes.filter(
      ({ read, change }) => sameModel(read) && staleIn(read, change) && (change.field === null || !ignored.has(change.field)),
    );
    // The filter names another loaded row of the model by its key (`where: { id: today.id }`).
    kept = writtenToRowsRead(kept, write.conditions, this.env, sameModel);
    const first = kept[0];
    // Nothing written from a read: a field the write changes in the database may still cross a bound checked on a read (checked-bounds.ts).
    if (!first)
      return void this.pending.push(
        ...checkedThenWritten(write, this.reads.values(), sameModel, this.options.sourceCode, this.settledTaint),
      );
    // A compare-and-set (`WHERE balance = <read balance>`, a version column) loses nothing.
    const compared = comparedFieldsOf(write.conditions, this.env);
    if ([...compared].some((field) => VERSION_COLUMN.test(field) || kept.some(({ change }) => change.field === field))) return;
    this.pending.push({ read: first.read, write, changes: kept.map((c) => c.change), loc: first.loc });
  }

  private enterFunction(node: TSESTree.FunctionLike): void {
    this.frames.enter();
    const instance = saveHookInstanceOf(node);
    if (instance) {
      const read: ReadSite = { candidates: ['sequelize'], node: instance, model: null, locked: false, mutations: [], boundChecks: [] };
      read.savedByHook = true;
      this.frames.declare(instance.name, { read, field: null, computed: null });
      return;
    }
    // `this` of a schema's instance method is a loaded document (schema-methods.ts).
    bindThis(node, this.frames);
    // A parameter shadows an outer name; the element of a tainted array iterated by a callback
    // (`rows.forEach((row) => …)`) and the row a read hands to `.then` are tainted (callback-rows.ts).
    const source = callbackSource(node);
    // A parameter typed as an entity its caller loaded, handed a read by a call of this file, or saved by the function
    // (guarded.ts) holds a read, checked as one (checked-states.ts), and so does a request's row (`req.user`: request-rows.ts).
    const entities = node.params.length > 0 ? parameterReads(node, this.options.handedRows, this.options.sourceCode) : [];
    if (this.requestRows.heldBy(node, this.options.sourceCode.text, entities)) this.frames.markCurrentLive();
    if (this.frames.anyLive || source?.settles || entities.length > 0) {
      const element = source ? this.taint(source.value) : null;
      node.params.forEach((param, i) => this.frames.bind(param, i === source?.index ? element : null, true));
    }
    for (const { name, read } of entities) this.frames.declare(name, { read, field: null, computed: null });
    for (const { read } of entities) this.reads.set(read.node, read);
  }

  private assignment(node: TSESTree.AssignmentExpression): void {
    const { frames, options } = this;
    // `product.quantity! -= n`: the non-null assertion changes nothing of what is assigned.
    const left = node.left.type === 'TSNonNullExpression' ? node.left.expression : node.left;
    const compound = node.operator !== '=' && node.operator !== '&&=' && node.operator !== '||=' && node.operator !== '??=';
    const carried = this.taint(node.right);
    // A pending read is asked where its being one decides more than where the value goes: a
    // compound assignment or one on a branch, over a name that holds a taint (`x += …` computes
    // from it; a branch keeps it when the value is none).
    const decides = carried !== null && left.type === 'Identifier' && (compound || inBranch(node)) && !!settled(frames.lookup(left.name));
    let right = decides ? settled(carried) : carried;
    const operator = node.operator === '+=' ? '+' : node.operator === '-=' ? '-' : node.operator.slice(0, -1);
    if (left.type === 'Identifier') {
      if (compound) frames.compound(left.name, right, { node, operator, operand: right ? null : options.sourceCode.getText(node.right) });
      // `if (!row) row = await Model.create(…)`: on the other path the name still holds the read.
      else if (!right && inBranch(node)) return;
      else frames.assign(left.name, right);
      return;
    }
    if (left.type === 'MemberExpression') {
      // A field set to a value not computed from a read changes nothing; otherwise nothing happens
      // unless the object is a loaded entity or the computed value taints a local object.
      // `row.list = row.list.filter(…)`: a list made from the field, assigned back whole (list-assignments.ts).
      const listChange = compound ? null : listAssignedBack(node, left, carried, settled(this.taint(left.object)), options.sourceCode);
      if (listChange) return void settled(this.taint(left.object))?.read.mutations.push(listChange);
      if (!compound && !carried?.computed) {
        if (this.redis) remember(redisFieldSetOf(left, node, this.settledTaint));
        return;
      }
      const root = unwrapExpression(left.object);
      if (!this.taint(left.object) && !(carried?.computed && root.type === 'Identifier')) return;
      right = settled(right);
      const simple = operator === '+' || operator === '-';
      const change = compound
        ? {
            node,
            operator: simple && !right ? (operator as '+' | '-') : null,
            operand: simple && !right ? options.sourceCode.getText(node.right) : null,
          }
        : right
          ? changeOf(null, right)
          : null;
      if (this.mutate(left, change, node)) return;
      // `patch.balance = row.balance - 1` taints the local object `patch`.
      if (root.type === 'Identifier' && right?.computed && !settled(frames.lookup(root.name))) frames.assign(root.name, setTo(right, left));
      return;
    }
    if (left.type === 'ObjectPattern' || left.type === 'ArrayPattern') frames.bind(left, right, false);
  }

  private update(node: TSESTree.UpdateExpression): void {
    const operator = node.operator === '++' ? '+' : '-';
    const argument = unwrapExpression(node.argument);
    if (argument.type === 'Identifier') this.frames.compound(argument.name, null, { node, operator, operand: '1' });
    else if (argument.type === 'MemberExpression') this.mutate(argument, { node, operator, operand: '1' }, node);
  }

  /** Outside live functions every member call is asked whether it is a read; a plain call can only be a `require`. */
  private call(node: TSESTree.CallExpression): void {
    const callee = node.callee;
    if (callee.type === 'Identifier') {
      if (callee.name !== 'require') {
        if (!this.frames.anyLive) this.noteRead(node);
        return;
      }
      const source = node.arguments[0];
      const library = source?.type === 'Literal' && typeof source.value === 'string' ? libraryOfModule(source.value) : undefined;
      if (library) this.imported.add(library);
      return;
    }
    if (!this.frames.anyLive) this.noteRead(node);
    // A write inside a transaction callback locks its rows for the reads after it.
    if (transactionCallbackOf(node)) {
      const model =
        writeSiteOf(node, () => false)?.model ?? (this.options.sqlWrites ? sqlUpdatedTable(node, this.options.sourceCode) : null);
      this.locks.noteWrite(model ?? null, node);
    }
  }

  private callExit(node: TSESTree.CallExpression): void {
    if (this.redis && remember(redisMutationOf(node, this.settledTaint))) return;
    if (rememberGrowth(node, this.settledTaint) || relockedRow(node, this.settledTaint)) return;
    const changed = entityChangeCallOf(node, this.isLoadedEntity);
    if (changed) {
      settled(this.taint(changed.entity))?.read.mutations.push(...entityFieldChanges(changed, this.settledTaint));
      return;
    }
    const write =
      strapiWriteSiteOf(node) ??
      writeSiteOf(node, this.isLoadedEntity) ??
      incrementSiteOf(node, this.isLoadedEntity) ??
      (this.options.sqlWrites ? sqlWriteSiteOf(node, this.options.sourceCode) : null) ??
      (this.redis ? keyValueWriteSiteOf(node, this.redis) : null) ??
      this.options.helperWriteOf?.(node, (value) => this.taint(value) !== null);
    const found = write === false ? null : (write ?? helperWriteSiteOf(node));
    if (found) this.checkWrite(found);
    else this.pending.push(...helperBoundChanges(node, this.reads.values(), this.options, this.settledTaint));
  }

  /** The ESLint listeners that drive the engine (every one guarded; the `:exit` ones skipped while nothing is live). */
  listeners(): RuleListener {
    const frames = this.frames;
    const whileLive = <T>(fn: (node: T) => void): ((node: T) => void) => {
      const safe = guarded(fn);
      return (node: T): void => {
        if (frames.anyLive) safe(node);
      };
    };
    const enter = guarded((node: TSESTree.FunctionLike) => this.enterFunction(node));
    const exit = (): void => frames.exit();
    const noteRead = guarded((node: TSESTree.TaggedTemplateExpression) => this.noteRead(node));
    return {
      ImportDeclaration: guarded((node: TSESTree.ImportDeclaration) => {
        const library = libraryOfModule(String(node.source.value));
        if (library) this.imported.add(library);
      }),
      FunctionDeclaration: enter,
      FunctionExpression: enter,
      ArrowFunctionExpression: enter,
      'FunctionDeclaration:exit': exit,
      'FunctionExpression:exit': exit,
      'ArrowFunctionExpression:exit': exit,
      'VariableDeclarator:exit': whileLive((node: TSESTree.VariableDeclarator) => {
        const loop = node.parent?.parent;
        if (!node.init && (loop?.type === 'ForOfStatement' || loop?.type === 'ForInStatement')) return;
        frames.bind(node.id, (node.init && rowCopyOf(node.init, this.settledTaint)) ?? this.taint(node.init), true);
        for (const { name, read } of this.requestRows.bound(node)) frames.declare(name, { read, field: null, computed: null });
      }),
      // Entered before its `right` (`for (const row of await repo.find())`): asked even outside live functions.
      ForOfStatement: guarded((node: TSESTree.ForOfStatement) => {
        const left = node.left.type === 'VariableDeclaration' ? node.left.declarations[0]?.id : node.left;
        frames.bind(left ?? null, this.taint(node.right), node.left.type === 'VariableDeclaration');
      }),
      'AssignmentExpression:exit': whileLive((node: TSESTree.AssignmentExpression) => this.assignment(node)),
      'UpdateExpression:exit': whileLive((node: TSESTree.UpdateExpression) => this.update(node)),
      IfStatement: whileLive((node: TSESTree.IfStatement) => noteChecks(node, this.settledTaint)),
      CallExpression: guarded((node: TSESTree.CallExpression) => this.call(node)),
      TaggedTemplateExpression: (node: TSESTree.TaggedTemplateExpression) => {
        if (!frames.anyLive) noteRead(node);
      },
      'CallExpression:exit': whileLive((node: TSESTree.CallExpression) => this.callExit(node)),
      'TaggedTemplateExpression:exit': whileLive((node: TSESTree.TaggedTemplateExpression) => {
        const write = this.options.sqlWrites ? sqlWriteSiteOf(node, this.options.sourceCode) : null;
        if (write) this.checkWrite(write);
      }),
    };
  }

  /** The findings of the file, one per report position; call after the traversal. */
  findings(keep?: Parameters<typeof findingsOf>[2]): ReadThenWriteFinding[] {
    return findingsOf(this.pending, this.imported, keep);
  }
}
