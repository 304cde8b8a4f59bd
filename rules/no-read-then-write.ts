// A value read from the database, changed in JavaScript and written back: with two requests or
// two replicas doing it at once, one update is lost. Each function is walked once: reads bind
// taints to local names as declarations finish, mutations and writes are checked as they finish,
// and findings are reported at the end of the file (when the imports say which ORM `findOne` is).
import type { TSESTree } from '@typescript-eslint/utils';
import { createRule } from './utils/create-rule.js';
import { codeTextOf } from '../analysis/source/code-text.js';
import { LIBRARY_READS_WRITES, libraryOfModule, type DataLibrary } from '../src/knowledge/orm-reads-writes.js';
import { comparedFieldsOf } from './no-read-then-write/compared-fields.js';
import { taintOf, unionOf, type TaintEnvironment } from './no-read-then-write/taint.js';
import { entityChangeCallOf } from './no-read-then-write/entity-changes.js';
import { memberPropertyName } from '../analysis/ast/property-names.js';
import { unwrapExpression } from '../analysis/ast/unwrapped-expression.js';

import type { DatabaseCall, FieldChange, ReadSite, Taint, WriteSite } from './no-read-then-write/model.js';
import { mentionsReadAndWrite } from './no-read-then-write/mentions.js';
import { READ_CHAIN_NAMES, readSiteOf } from './no-read-then-write/read-site.js';
import { SQL_READ_KEYWORD, SQL_WRITE_KEYWORD, sqlReadSiteOf, sqlWriteSiteOf } from './no-read-then-write/sql-site.js';
import { writeSiteOf } from './no-read-then-write/write-site.js';

export type { DataLibrary } from '../src/knowledge/orm-reads-writes.js';
export type { FieldChange } from './no-read-then-write/model.js';

/** What the `atomic-counters` codemod needs to rewrite one read-then-write. */
export interface ReadThenWriteFacts {
  library: DataLibrary;
  /** The read call (outermost call of its chain: what is awaited). */
  read: DatabaseCall;
  /** The write call (outermost call of its chain). */
  write: DatabaseCall;
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
}

type MessageIds = DataLibrary;
type Options = [{ ignoreFields: string[] }];

const ATOMIC_PREFIX =
  '`{{field}}` is read, changed in JavaScript and written back; two requests or replicas doing this at once lose an update.';

const messages = Object.fromEntries(
  (Object.keys(LIBRARY_READS_WRITES) as DataLibrary[]).map((library) => [
    library,
    `${ATOMIC_PREFIX} Do the arithmetic in the database: ${LIBRARY_READS_WRITES[library].atomicForm}.`,
  ]),
) as Record<MessageIds, string>;

interface Frame {
  parent: Frame | null;
  /** Taint of each local name; `null` shadows a tainted name of an outer function. Made on first use: most functions bind none. */
  names: Map<string, Taint | null> | undefined;
  /** Holds a read or a tainted name: code in it (and in functions nested in it) can carry a taint. */
  live: boolean;
}

interface PendingFinding {
  read: ReadSite;
  write: WriteSite;
  changes: FieldChange[];
  loc: TSESTree.SourceLocation | undefined;
}

const ITERATING_METHODS = new Set(['forEach', 'map', 'flatMap', 'filter', 'some', 'every', 'reduce']);
const COMPARISONS = new Set(['<', '<=', '>', '>=']);
/** Optimistic-concurrency columns: a write filtered on one of these is a compare-and-set. */
const VERSION_FIELDS = /^(?:version|__v|_version|lock_?version|revision|etag|updated_?at)$/i;

function exits(statement: TSESTree.Statement): boolean {
  const last = statement.type === 'BlockStatement' ? statement.body[statement.body.length - 1] : statement;
  return (
    last?.type === 'ThrowStatement' ||
    last?.type === 'ReturnStatement' ||
    last?.type === 'BreakStatement' ||
    last?.type === 'ContinueStatement'
  );
}

function contains(outer: TSESTree.Node, inner: TSESTree.Node): boolean {
  return outer.range[0] <= inner.range[0] && inner.range[1] <= outer.range[1];
}

function changeOf(field: string | null, taint: Taint): FieldChange | null {
  const computed = taint.computed;
  if (!computed) return null;
  const simple = (computed.operator === '+' || computed.operator === '-') && computed.operand !== null;
  return {
    field: field ?? computed.field,
    node: computed.node,
    operator: simple ? (computed.operator as '+' | '-') : null,
    operand: simple ? computed.operand : null,
    readField: computed.field,
  };
}

export const noReadThenWrite = createRule<MessageIds, Options, ReadThenWriteFacts>({
  name: 'no-read-then-write',
  meta: {
    type: 'problem',
    docs: {
      description:
        'Disallow reading a value from the database, changing it in JavaScript and writing it back (lost updates across requests and replicas)',
      recommended: true,
    },
    messages,
    schema: [
      {
        type: 'object',
        additionalProperties: false,
        properties: {
          ignoreFields: {
            type: 'array',
            items: { type: 'string' },
            uniqueItems: true,
            description: 'Column or field names never reported (values only one writer ever changes, such as a per-user cursor).',
          },
        },
      },
    ],
  },
  defaultOptions: [{ ignoreFields: [] }],
  detect(context, report) {
    const sourceCode = context.sourceCode;
    // Most files hold no read and write the rule knows: skip them before any AST work.
    const code = codeTextOf(sourceCode);
    if (!mentionsReadAndWrite(code)) return {};
    // SQL is read from this file's strings: without the keyword anywhere, no call sends a SQL
    // read (or write), and the SQL text of each `query(…)` call need not be built to find out.
    const sqlReads = SQL_READ_KEYWORD.test(code);
    const sqlWrites = SQL_WRITE_KEYWORD.test(code);
    const ignored = new Set(context.options[0]?.ignoreFields ?? []);
    const imported = new Set<DataLibrary>();
    const findings: PendingFinding[] = [];
    const reads = new Map<TSESTree.Node, ReadSite | null>();
    let frame: Frame = { parent: null, names: undefined, live: false };
    // Every taint starts at a read, and `taintOf` never looks into a nested function: a name is
    // tainted only in the function that holds the read, or in one a tainted value is assigned to.
    // While no function on the stack is live, nothing can be tainted and the exit handlers have
    // nothing to check; most code of a file with reads sits in functions without one.
    let liveFrames = 0;
    const markLive = (f: Frame): void => {
      if (f.live) return;
      f.live = true;
      liveFrames++;
    };
    const noteRead = (node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression): void => {
      if (node.type === 'CallExpression') {
        // Every read chain has a call named by a read or SQL method (its own, or an inner link's,
        // entered after it): others need no chain built.
        const callee = unwrapExpression(node.callee);
        const name = callee.type === 'MemberExpression' ? memberPropertyName(callee) : undefined;
        if (name === undefined || !READ_CHAIN_NAMES.has(name)) return;
      }
      if (env.readOf(node)) markLive(frame);
    };

    const lookup = (name: string): Taint | null | undefined => {
      for (let f: Frame | null = frame; f; f = f.parent) {
        if (f.names?.has(name)) return f.names.get(name);
      }
      return undefined;
    };
    /** Assigns to the frame that declared `name` (or the current one). */
    const assign = (name: string, taint: Taint | null): void => {
      for (let f: Frame | null = frame; f; f = f.parent) {
        if (f.names?.has(name)) {
          f.names.set(name, taint);
          if (taint) markLive(f);
          return;
        }
      }
      if (taint) declareName(name, taint);
    };
    const declareName = (name: string, taint: Taint | null): void => {
      (frame.names ??= new Map()).set(name, taint);
      if (taint) markLive(frame);
    };
    const env: TaintEnvironment = {
      lookup,
      readOf(node) {
        let site = reads.get(node);
        if (site === undefined) {
          try {
            site = (node.type === 'CallExpression' ? readSiteOf(node) : null) ?? (sqlReads ? sqlReadSiteOf(node, sourceCode) : null);
          } catch {
            site = null;
          }
          reads.set(node, site);
        }
        return site;
      },
      text: (node) => sourceCode.getText(node),
    };
    const taint = (node: TSESTree.Node | null | undefined): Taint | null => taintOf(node, env);
    const isLoadedEntity = (node: TSESTree.Node): boolean => {
      const t = taint(node);
      return t !== null && !t.computed && t.field === null;
    };

    const bind = (pattern: TSESTree.Node | null, value: Taint | null, declare: boolean): void => {
      if (!pattern) return;
      switch (pattern.type) {
        case 'Identifier':
          if (declare) declareName(pattern.name, value);
          else assign(pattern.name, value);
          return;
        case 'ObjectPattern':
          for (const property of pattern.properties) {
            if (property.type === 'RestElement') {
              bind(property.argument, value, declare);
              continue;
            }
            const key = !property.computed && property.key.type === 'Identifier' ? property.key.name : null;
            bind(property.value, value && { ...value, field: value.computed ? value.field : (key ?? value.field) }, declare);
          }
          return;
        case 'ArrayPattern':
          for (const element of pattern.elements) bind(element, value, declare);
          return;
        case 'RestElement':
          bind(pattern.argument, value, declare);
          return;
        case 'AssignmentPattern':
          bind(pattern.left, unionOf(value, taint(pattern.right)), declare);
          return;
        default:
          return;
      }
    };

    /** A field of a loaded entity changed in JavaScript (`entity.count++`): remembered until saved. */
    const mutate = (target: TSESTree.MemberExpression, change: Omit<FieldChange, 'field'> | null): boolean => {
      const owner = taint(target.object);
      if (!owner || owner.computed || !change) return false;
      owner.read.mutations.push({ field: memberPropertyName(target) ?? null, ...change });
      return true;
    };

    const checkWrite = (write: WriteSite): void => {
      const changes: { read: ReadSite; change: FieldChange; loc: TSESTree.SourceLocation | undefined }[] = [];
      for (const value of write.values) {
        const t = taint(value.value);
        if (!t || t.read.locked) continue;
        const change = changeOf(value.field, t);
        if (change) {
          changes.push({ read: t.read, change, loc: value.loc });
          continue;
        }
        // `entity.count++` then `repo.update(id, { count: entity.count })` or `repo.update(id, entity)`
        const mutated = t.read.mutations.filter((m) => t.field === null || m.field === t.field);
        for (const m of mutated) changes.push({ read: t.read, change: { ...m, field: value.field ?? m.field }, loc: value.loc });
      }
      for (const entity of write.entities) {
        const t = taint(entity);
        if (!t || t.read.locked) continue;
        for (const change of t.read.mutations) changes.push({ read: t.read, change, loc: undefined });
        t.read.mutations = []; // saved: a second save of the same entity writes nothing new
      }
      // `selectFrom('accounts as a')` and `updateTable('accounts')` name one table.
      const table = (model: string): string => model.trim().split(/\s+/)[0]?.toLowerCase() ?? model;
      const sameModel = (read: ReadSite): boolean =>
        read.model === null || write.model === null || table(read.model) === table(write.model);
      const kept = changes.filter(({ read, change }) => sameModel(read) && (change.field === null || !ignored.has(change.field)));
      const first = kept[0];
      if (!first) return;
      // A compare-and-set (`WHERE balance = <read balance>`, a version column) loses nothing.
      const compared = comparedFieldsOf(write.conditions, env);
      if ([...compared].some((field) => VERSION_FIELDS.test(field) || kept.some(({ change }) => change.field === field))) return;
      findings.push({ read: first.read, write, changes: kept.map((c) => c.change), loc: first.loc });
    };

    const libraryOf = (read: ReadSite, write: WriteSite): DataLibrary => {
      const shared = write.candidates.length === 1 ? write.candidates : write.candidates.filter((c) => read.candidates.includes(c));
      const pool = shared.length > 0 ? shared : read.candidates;
      const order = pool.length === 1 ? pool : [...pool].sort((a, b) => Number(imported.has(b)) - Number(imported.has(a)));
      return order[0] ?? 'sql';
    };

    const enterFunction = (node: TSESTree.FunctionLike): void => {
      frame = { parent: frame, names: undefined, live: false };
      if (liveFrames === 0) return;
      // A parameter shadows an outer name; the element of a tainted array iterated by a callback
      // (`rows.forEach((row) => …)`) is tainted.
      let element: Taint | null = null;
      let elementIndex = 0;
      const parent = node.parent;
      const callee = parent?.type === 'CallExpression' && parent.arguments[0] === node ? unwrapExpression(parent.callee) : undefined;
      if (callee?.type === 'MemberExpression' && ITERATING_METHODS.has(memberPropertyName(callee) ?? '')) {
        element = taint(callee.object);
        if (memberPropertyName(callee) === 'reduce') elementIndex = 1;
      }
      node.params.forEach((param, i) => bind(param, i === elementIndex ? element : null, true));
    };
    const exitFunction = (): void => {
      if (!frame.parent) return;
      if (frame.live) liveFrames--;
      frame = frame.parent;
    };

    // One argument, no rest parameters: these run on most nodes of the file.
    const guard =
      <T>(fn: (node: T) => void) =>
      (node: T): void => {
        try {
          fn(node);
        } catch {
          // A shape we did not foresee never breaks linting.
        }
      };
    /** `guard`, skipping the call while nothing can be tainted (no function on the stack is live). */
    const whileLive =
      <T>(fn: (node: T) => void) =>
      (node: T): void => {
        if (liveFrames === 0) return;
        try {
          fn(node);
        } catch {
          // A shape we did not foresee never breaks linting.
        }
      };

    const noteReadGuarded = guard(noteRead);

    return {
      ImportDeclaration: guard((node: TSESTree.ImportDeclaration) => {
        const library = libraryOfModule(String(node.source.value));
        if (library) imported.add(library);
      }),
      FunctionDeclaration: guard(enterFunction),
      FunctionExpression: guard(enterFunction),
      ArrowFunctionExpression: guard(enterFunction),
      'FunctionDeclaration:exit': exitFunction,
      'FunctionExpression:exit': exitFunction,
      'ArrowFunctionExpression:exit': exitFunction,
      'VariableDeclarator:exit': whileLive((node: TSESTree.VariableDeclarator) => {
        const loop = node.parent?.parent;
        if (!node.init && (loop?.type === 'ForOfStatement' || loop?.type === 'ForInStatement')) return;
        bind(node.id, taint(node.init), true);
      }),
      // Entered before its `right` (`for (const row of await repo.find())`): asked even outside live functions.
      ForOfStatement: guard((node: TSESTree.ForOfStatement) => {
        const left = node.left.type === 'VariableDeclaration' ? node.left.declarations[0]?.id : node.left;
        bind(left ?? null, taint(node.right), node.left.type === 'VariableDeclaration');
      }),
      'AssignmentExpression:exit': whileLive((node: TSESTree.AssignmentExpression) => {
        const left = node.left;
        const right = taint(node.right);
        const compound = node.operator !== '=' && node.operator !== '&&=' && node.operator !== '||=' && node.operator !== '??=';
        const operator = node.operator === '+=' ? '+' : node.operator === '-=' ? '-' : node.operator.slice(0, -1);
        if (left.type === 'Identifier') {
          if (!compound) {
            assign(left.name, right);
            return;
          }
          const base = unionOf(lookup(left.name) ?? null, right);
          if (!base) return;
          const operand = right ? null : sourceCode.getText(node.right);
          assign(left.name, {
            read: base.read,
            field: base.field,
            computed: { node, operator, operand, field: base.computed?.field ?? base.field },
          });
          return;
        }
        if (left.type === 'MemberExpression') {
          const simple = operator === '+' || operator === '-';
          const change = compound
            ? {
                node,
                operator: simple && !right ? (operator as '+' | '-') : null,
                operand: simple && !right ? sourceCode.getText(node.right) : null,
              }
            : right
              ? changeOf(null, right)
              : null;
          if (mutate(left, change)) return;
          // `patch.balance = row.balance - 1` taints the local object `patch`.
          const root = unwrapExpression(left.object);
          if (root.type === 'Identifier' && right?.computed && !lookup(root.name)) assign(root.name, right);
          return;
        }
        if (left.type === 'ObjectPattern' || left.type === 'ArrayPattern') bind(left, right, false);
      }),
      'UpdateExpression:exit': whileLive((node: TSESTree.UpdateExpression) => {
        const operator = node.operator === '++' ? '+' : '-';
        const argument = unwrapExpression(node.argument);
        if (argument.type === 'Identifier') {
          const base = lookup(argument.name);
          if (base)
            assign(argument.name, {
              read: base.read,
              field: base.field,
              computed: { node, operator, operand: '1', field: base.computed?.field ?? base.field },
            });
        } else if (argument.type === 'MemberExpression') {
          mutate(argument, { node, operator, operand: '1' });
        }
      }),
      IfStatement: whileLive((node: TSESTree.IfStatement) => {
        const visit = (test: TSESTree.Node): void => {
          const expr = unwrapExpression(test);
          if (expr.type === 'LogicalExpression') {
            visit(expr.left);
            visit(expr.right);
          } else if (expr.type === 'BinaryExpression' && COMPARISONS.has(expr.operator)) {
            const t = (expr.left.type === 'PrivateIdentifier' ? null : taint(expr.left)) ?? taint(expr.right);
            if (t && !t.read.boundChecks.includes(node)) t.read.boundChecks.push(node);
          }
        };
        visit(node.test);
      }),
      // Outside live functions every member call is asked whether it is a read; inside one, the
      // exit handlers find reads through `taintOf`. A plain call can only be a `require`.
      CallExpression: guard((node: TSESTree.CallExpression) => {
        const callee = node.callee;
        if (callee.type === 'Identifier') {
          if (callee.name !== 'require') return;
          const source = node.arguments[0];
          const library = source?.type === 'Literal' && typeof source.value === 'string' ? libraryOfModule(source.value) : undefined;
          if (library) imported.add(library);
          return;
        }
        if (liveFrames === 0) noteRead(node);
      }),
      TaggedTemplateExpression: (node: TSESTree.TaggedTemplateExpression) => liveFrames === 0 && noteReadGuarded(node),
      'CallExpression:exit': whileLive((node: TSESTree.CallExpression) => {
        const changed = entityChangeCallOf(node, isLoadedEntity);
        if (changed) {
          const owner = taint(changed.entity);
          for (const { field, value } of changed.changes) {
            const t = taint(value);
            const change = t ? changeOf(field, t) : null;
            if (owner && change) owner.read.mutations.push(change);
          }
          return;
        }
        const write = writeSiteOf(node, isLoadedEntity) ?? (sqlWrites ? sqlWriteSiteOf(node, sourceCode) : null);
        if (write) checkWrite(write);
      }),
      'TaggedTemplateExpression:exit': whileLive((node: TSESTree.TaggedTemplateExpression) => {
        const write = sqlWrites ? sqlWriteSiteOf(node, sourceCode) : null;
        if (write) checkWrite(write);
      }),
      'Program:exit': guard(() => {
        const seen = new Set<string>();
        for (const { read, write, changes, loc } of findings) {
          const at = loc ?? write.reportNode.loc;
          const key = `${at.start.line}:${at.start.column}`;
          if (seen.has(key)) continue;
          seen.add(key);
          const library = libraryOf(read, write);
          const first = changes[0];
          const boundCheck =
            read.boundChecks.find(
              (check) => contains(check, write.node) || (check.range[1] <= write.node.range[0] && exits(check.consequent)),
            ) ?? null;
          const fields = [...new Set(changes.flatMap((c) => (c.field === null ? [] : [c.field])))];
          report({
            messageId: library,
            data: { field: fields[0] ?? 'value' },
            node: write.reportNode,
            ...(loc ? { loc } : {}),
            facts: {
              library,
              read: read.node,
              write: write.node,
              model: read.model,
              fields,
              changes,
              operator: first?.operator ?? null,
              operand: first?.operand ?? null,
              boundCheck,
              guarded: boundCheck !== null,
            },
          });
        }
      }),
    };
  },
});

export default noReadThenWrite;
