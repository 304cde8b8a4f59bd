// Rows a transaction has written stay locked until it ends: inside a transaction callback, a read
// of a table or model the callback already wrote (`UPDATE docs … WHERE id = $1`, then
// `SELECT … FROM docs`) cannot be raced by another writer, so what it reads is current until the
// commit. Models are compared by name, as the read and write sites give them.
import type { TSESTree } from '@typescript-eslint/utils';
import { TRANSACTION_RUNNERS } from '../../src/knowledge/orm-reads-writes.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';

const RUNNERS: ReadonlySet<string> = new Set(TRANSACTION_RUNNERS);

const isFunction = (node: TSESTree.Node): node is TSESTree.FunctionLike =>
  node.type === 'FunctionDeclaration' || node.type === 'FunctionExpression' || node.type === 'ArrowFunctionExpression';

/** The transaction callback `node` runs in directly (`prisma.$transaction(async (tx) => { … node … })`), or null. */
export function transactionCallbackOf(node: TSESTree.Node): TSESTree.FunctionLike | null {
  let fn: TSESTree.Node | undefined = node.parent;
  while (fn && !isFunction(fn)) fn = fn.parent;
  const call = fn?.parent;
  if (!fn || call?.type !== 'CallExpression' || !call.arguments.includes(fn as TSESTree.CallExpressionArgument)) return null;
  const callee = unwrapExpression(call.callee);
  const name = callee.type === 'MemberExpression' ? memberPropertyName(callee) : callee.type === 'Identifier' ? callee.name : undefined;
  return name !== undefined && RUNNERS.has(name) ? (fn as TSESTree.FunctionLike) : null;
}

/** `selectFrom('accounts as a')`, `Account` and `accounts`: one table. */
function tableKey(model: string): string {
  return (model.trim().split(/\s+/)[0] ?? model).toLowerCase().replace(/s$/, '');
}

export class TransactionLocks {
  private readonly written = new Map<TSESTree.Node, Set<string>>();

  /** A write of `model` made at `at`: remembered when it runs inside a transaction callback. */
  noteWrite(model: string | null, at: TSESTree.Node): void {
    if (model === null) return;
    const fn = transactionCallbackOf(at);
    if (!fn) return;
    let models = this.written.get(fn);
    if (!models) this.written.set(fn, (models = new Set()));
    models.add(tableKey(model));
  }

  /** Whether a read of `model` at `at` comes after a write of that model in the same transaction callback. */
  holds(model: string | null, at: TSESTree.Node): boolean {
    return model !== null && this.heldAt(at)(model);
  }

  /** `holds` for a read at `at` as the writes stand now, for a model known later (a pending read's). */
  heldAt(at: TSESTree.Node): (model: string | null) => boolean {
    const fn = this.written.size === 0 ? null : transactionCallbackOf(at);
    const models = fn ? this.written.get(fn) : undefined;
    if (!models) return () => false;
    const now = new Set(models);
    return (model) => model !== null && now.has(tableKey(model));
  }
}
