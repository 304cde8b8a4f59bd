// Whether scheduled work is already guarded across replicas:
// - its first statement is a guard check (`if (!(await claimPeriod(…))) return;`, `if (!await …)`,
//   `if (await …) { work }`, `const ok = await claimPeriod(…); if (!ok) return;`);
// - or its body runs inside a wrapper (`return runExclusive(key, ttl, async () => { … })`);
// - or each top-level statement with an outside effect sits under a guard (`claimOnce` per event).
import type { TSESTree } from '@typescript-eslint/utils';
import type { GuardCallKind } from './guard-calls.js';
import { workEffects, type EffectsOptions } from './external-effects.js';
import { unwrapExpression } from '../ast/unwrapped-expression.js';
import { exits, negated } from './exit-tests.js';

export type GuardLookup = (call: TSESTree.CallExpression) => GuardCallKind | undefined;

/** The call under `await`, `void`, `!`-free TypeScript wrappers and optional chains. */
function unwrap(node: TSESTree.Node): TSESTree.Node {
  const inner = unwrapExpression(node, { await: true });
  return inner.type === 'UnaryExpression' && inner.operator === 'void' ? unwrap(inner.argument) : inner;
}

function isCheckCall(node: TSESTree.Node, guards: GuardLookup): boolean {
  const inner = unwrap(node);
  if (inner.type !== 'CallExpression') return false;
  const kind = guards(inner);
  return kind === 'check' || kind === 'custom';
}

function isWrapperCall(node: TSESTree.Node, guards: GuardLookup): boolean {
  const inner = unwrap(node);
  if (inner.type !== 'CallExpression') return false;
  const kind = guards(inner);
  return kind === 'wrapper' || kind === 'custom';
}

function isIdentifierNamed(node: TSESTree.Node | undefined, name: string): boolean {
  return node !== undefined && node.type === 'Identifier' && node.name === name;
}

/** Whether a statement list starts with a guard (check or wrapper). */
function startsWithGuard(statements: readonly TSESTree.Statement[], guards: GuardLookup): boolean {
  const first = statements[0];
  if (!first) return false;
  if (first.type === 'IfStatement') {
    const operand = negated(first.test);
    if (operand && isCheckCall(operand, guards) && exits(first.consequent)) return true;
    if (isCheckCall(first.test, guards)) return true;
  }
  if (first.type === 'VariableDeclaration' && first.declarations.length === 1) {
    const declarator = first.declarations[0]!;
    const second = statements[1];
    if (declarator.id.type === 'Identifier' && declarator.init && isCheckCall(declarator.init, guards) && second?.type === 'IfStatement') {
      const name = declarator.id.name;
      const operand = negated(second.test);
      if (operand && isIdentifierNamed(operand, name) && exits(second.consequent)) return true;
      if (isIdentifierNamed(second.test, name)) return true;
    }
  }
  if (first.type === 'ExpressionStatement' && isWrapperCall(first.expression, guards)) return true;
  if (first.type === 'ReturnStatement' && first.argument && isWrapperCall(first.argument, guards)) return true;
  return false;
}

function containsGuardCall(node: TSESTree.Node, guards: GuardLookup, keys: Record<string, readonly string[] | undefined>): boolean {
  if (node.type === 'CallExpression' && guards(node)) return true;
  for (const key of keys[node.type] ?? []) {
    const child = (node as unknown as Record<string, unknown>)[key];
    const children = Array.isArray(child) ? child : [child];
    for (const item of children) {
      if (item && typeof (item as TSESTree.Node).type === 'string' && containsGuardCall(item as TSESTree.Node, guards, keys)) return true;
    }
  }
  return false;
}

/**
 * Whether work whose body is `body` (a function body or a loop body) is guarded. `effects` is
 * used for the per-event form: every outside effect at the top level sits in a statement that
 * calls a guard.
 */
export function isGuarded(body: TSESTree.Node, guards: GuardLookup, effects: EffectsOptions): boolean {
  if (body.type !== 'BlockStatement') return isCheckCall(body, guards) || isWrapperCall(body, guards);
  const statements = body.body;
  if (startsWithGuard(statements, guards)) return true;
  const keys = effects.sourceCode.visitorKeys as Record<string, readonly string[] | undefined>;
  // Without a guard call in any statement the answer is no: the effects walk (which may follow
  // calls into other modules) is asked only of the statements around a guard call.
  const guarded = statements.map((statement) => containsGuardCall(statement, guards, keys));
  if (!guarded.includes(true)) return false;
  for (const [i, statement] of statements.entries()) {
    if (guarded[i]) continue;
    if (workEffects(statement, effects).external && statement.type !== 'VariableDeclaration') return false;
  }
  return true;
}
