// The obvious message id in scope at a publish call: `row.id` inside `for (const row of rows)`,
// `event.id` for an `event` parameter, an `outboxId` variable. Only an unambiguous one: two
// equally good candidates in the nearest scope that has any mean "no suggestion". And, for the
// codemod, the id of what is published: `js.publish(subject, encode(order))` where `order`
// visibly has an `id` (its type says so, or the code reads `order.id`).
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { findVariable } from '@eslint-community/eslint-utils';
import { msgIdCandidateOf } from '../../src/knowledge/jetstream.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';

type Node = TSESTree.Node;
const ID = 'id';

/** The variables a payload expression is built from (`encode(JSON.stringify(order))` → `order`), not callee or property names. */
function payloadNames(root: Node): TSESTree.Identifier[] {
  const out: TSESTree.Identifier[] = [];
  const visit = (node: Node): void => {
    if (node.type === 'Identifier') {
      const parent = node.parent;
      const isCallee = (parent?.type === 'CallExpression' || parent?.type === 'NewExpression') && parent.callee === node;
      const isProperty = parent?.type === 'MemberExpression' && parent.property === node && !parent.computed;
      const isCalleeObject =
        parent?.type === 'MemberExpression' &&
        parent.object === node &&
        parent.parent?.type === 'CallExpression' &&
        parent.parent.callee === parent;
      if (!isCallee && !isProperty && !isCalleeObject) out.push(node);
      return;
    }
    if (node.type === 'ArrowFunctionExpression' || node.type === 'FunctionExpression') return;
    for (const [key, child] of Object.entries(node)) {
      if (key === 'parent') continue;
      for (const c of Array.isArray(child) ? child : [child]) if (c && typeof (c as Node).type === 'string') visit(c as Node);
    }
  };
  visit(root);
  return out;
}

/** Whether a type annotation has an `id` member: `{ id: string }`, an interface or type alias of this file that has one. */
function typeHasId(type: Node | undefined, program: TSESTree.Program, depth = 0): boolean {
  if (!type || depth > 3) return false;
  if (type.type === 'TSTypeAnnotation') return typeHasId(type.typeAnnotation, program, depth);
  const hasIdMember = (members: readonly Node[]) =>
    members.some((m) => m.type === 'TSPropertySignature' && m.key.type === 'Identifier' && m.key.name === ID);
  if (type.type === 'TSTypeLiteral') return hasIdMember(type.members);
  if (type.type === 'TSIntersectionType') return type.types.some((t) => typeHasId(t, program, depth + 1));
  if (type.type !== 'TSTypeReference' || type.typeName.type !== 'Identifier') return false;
  const name = type.typeName.name;
  for (const statement of program.body) {
    const declaration = statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement;
    if (declaration?.type === 'TSInterfaceDeclaration' && declaration.id.name === name) return hasIdMember(declaration.body.body);
    if (declaration?.type === 'TSTypeAliasDeclaration' && declaration.id.name === name)
      return typeHasId(declaration.typeAnnotation, program, depth + 1);
  }
  return false;
}

/**
 * `order.id` when the publish's payload is built from `order` alone and `order` visibly has an id.
 * Used by the codemod, not offered as an editor suggestion (the id of a payload is a weaker guess
 * than an outbox row's).
 */
export function payloadIdCandidate(sourceCode: Readonly<TSESLint.SourceCode>, call: TSESTree.CallExpression): string | undefined {
  const payload = call.arguments[1];
  return payload ? idOfPayload(sourceCode, payload, 0) : undefined;
}

/**
 * The id of what `payload` is built from; a `const payload = encode(JSON.stringify(refund))` that
 * holds nothing else with an id is followed to what it was built from (`refund.id`).
 */
function idOfPayload(sourceCode: Readonly<TSESLint.SourceCode>, payload: Node, depth: number): string | undefined {
  const names = payloadNames(payload);
  const [first] = names;
  if (!first || names.some((n) => n.name !== first.name)) return undefined;
  let variable: TSESLint.Scope.Variable | null;
  try {
    variable = findVariable(sourceCode.getScope(first) as never, first) as TSESLint.Scope.Variable | null;
  } catch {
    return undefined;
  }
  const def = variable?.defs[0];
  if (!variable || !def) return undefined;
  const readsId = variable.references.some((r) => {
    const parent = (r.identifier as Node).parent;
    return parent?.type === 'MemberExpression' && parent.object === r.identifier && memberPropertyName(parent) === ID;
  });
  const declaredWithId = typeHasId((def.name as TSESTree.Identifier).typeAnnotation, sourceCode.ast);
  if (readsId || declaredWithId) return `${first.name}.${ID}`;
  const declarator = def.node as Node;
  const declaration = declarator.parent;
  if (
    depth === 0 &&
    declarator.type === 'VariableDeclarator' &&
    declarator.id.type === 'Identifier' &&
    declarator.init &&
    declaration?.type === 'VariableDeclaration' &&
    declaration.kind === 'const'
  )
    return idOfPayload(sourceCode, declarator.init, depth + 1);
  return undefined;
}

interface ScopeCandidate {
  text: string;
  rank: number;
  /** Where a `const`/`let` is declared (usable only after it); `undefined` for parameters and catch clauses. */
  declaredAt: number | undefined;
}

// A scope's variables whose names give an id, found once per scope: a module scope of a big file
// holds thousands of variables, and scanning them for every publish call made the rule quadratic.
const candidatesByScope = new WeakMap<TSESLint.Scope.Scope, ScopeCandidate[]>();

function scopeCandidates(scope: TSESLint.Scope.Scope): ScopeCandidate[] {
  const known = candidatesByScope.get(scope);
  if (known) return known;
  const list: ScopeCandidate[] = [];
  for (const variable of scope.variables) {
    const def = variable.defs[0];
    const kind = def?.type as string | undefined;
    if (!def || (kind !== 'Variable' && kind !== 'Parameter' && kind !== 'CatchClause')) continue;
    const candidate = msgIdCandidateOf(variable.name);
    if (candidate) list.push({ ...candidate, declaredAt: kind === 'Variable' ? def.name.range[0] : undefined });
  }
  candidatesByScope.set(scope, list);
  return list;
}

export function msgIdCandidate(sourceCode: Readonly<TSESLint.SourceCode>, call: TSESTree.Node): string | undefined {
  let scope: TSESLint.Scope.Scope | null;
  try {
    scope = sourceCode.getScope(call);
  } catch {
    return undefined;
  }
  for (; scope; scope = scope.upper) {
    // A `const` declared after the call is not usable there.
    const found = scopeCandidates(scope).filter((c) => c.declaredAt === undefined || c.declaredAt <= call.range[0]);
    if (found.length === 0) continue;
    const best = Math.min(...found.map((c) => c.rank));
    const ofBest = found.filter((c) => c.rank === best);
    return ofBest.length === 1 ? ofBest[0]?.text : undefined;
  }
  return undefined;
}
