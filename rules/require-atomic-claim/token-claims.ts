// A claim by token: the update stamps the rows it takes with a value this call just made
// (`locked_by: lockId`, `claimedBy: workerToken`) under a filter that re-checks their state, and
// the rows are then read back by that stamp (`.where('locked_by', lockId)`): what comes back is
// exactly what this replica changed — the row count of the update told another way. Without the
// re-checked state, or read back by anything else, it is no claim.
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { descendants } from '../../analysis/sql/descendants.js';
import { enclosingFunction } from '../../analysis/sql/enclosing-function.js';
import { isOutermostCall, methodChain, unwrap } from '../../analysis/sql/method-chain.js';
import { FILTER_METHOD } from '../../src/knowledge/sql.js';
import { keyName } from './row-names.js';

type Node = TSESTree.Node;
type SourceCode = Readonly<TSESLint.SourceCode>;

/** The stamps a write sets to a token: `{ locked_by: lockId }` → `locked_by` ↦ `lockId`, for a name bound in the function to a call's answer. */
function tokenStamps(values: Node | undefined, fn: Node, sourceCode: SourceCode): Map<string, string> {
  const stamps = new Map<string, string>();
  if (values?.type !== 'ObjectExpression') return stamps;
  for (const p of values.properties) {
    const key = p.type === 'Property' ? keyName(p) : undefined;
    const value = p.type === 'Property' ? unwrap(p.value) : undefined;
    if (key === undefined || value?.type !== 'Identifier') continue;
    const def = scopeVariable(sourceCode, value)?.defs[0];
    const declarator = def?.node as Node | undefined;
    // A token this function made (`randomUUID()`, `nanoid()`, `new ObjectId().toHexString()`), not a value it was given.
    if (
      def?.type === 'Variable' &&
      declarator?.type === 'VariableDeclarator' &&
      declarator.init &&
      ['CallExpression', 'NewExpression'].includes(unwrap(declarator.init).type) &&
      fn.range[0] <= declarator.range[0] &&
      declarator.range[1] <= fn.range[1]
    )
      stamps.set(key.toLowerCase(), value.name);
  }
  return stamps;
}

/** Whether a filter link compares a stamped column to its token: `.where('t.locked_by', lockId)`, `.where({ lockedBy: lockId })`, `where: { lockedBy: token }`. */
function filtersOnToken(call: TSESTree.CallExpression, stamps: ReadonlyMap<string, string>): boolean {
  const isToken = (column: string, value: Node | undefined): boolean => {
    const v = value && unwrap(value);
    return v?.type === 'Identifier' && stamps.get((column.split('.').pop() ?? column).toLowerCase()) === v.name;
  };
  const inObject = (node: Node | undefined): boolean =>
    node?.type === 'ObjectExpression' &&
    node.properties.some((p) => {
      if (p.type !== 'Property') return false;
      const key = keyName(p);
      return key !== undefined && (isToken(key, p.value) || (key === 'where' && inObject(unwrap(p.value))));
    });
  return methodChain(call).some((link) => {
    const args = link.call.arguments;
    const [column] = args;
    if (link.name !== undefined && FILTER_METHOD.test(link.name) && column?.type === 'Literal' && typeof column.value === 'string')
      return isToken(column.value, args[args.length - 1]);
    return args.some((a) => inObject(unwrap(a)));
  });
}

/**
 * Whether the update (`call`, a builder chain writing `values`) stamps its rows with a token made
 * in its function and a later read in that function takes the rows back by that token.
 */
export function readsBackByToken(call: TSESTree.CallExpression, values: Node | undefined, sourceCode: SourceCode): boolean {
  const fn = enclosingFunction(call);
  if (!fn) return false;
  const stamps = tokenStamps(values, fn, sourceCode);
  if (stamps.size === 0) return false;
  for (const node of descendants(fn.body, sourceCode.visitorKeys)) {
    if (node.range[0] < call.range[1] || node.type !== 'CallExpression' || !isOutermostCall(node)) continue;
    if (filtersOnToken(node, stamps)) return true;
  }
  return false;
}
