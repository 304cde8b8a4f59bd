// The obvious message id in scope at a publish call: `row.id` inside `for (const row of rows)`,
// `event.id` for an `event` parameter, an `outboxId` variable. Only an unambiguous one: two
// equally good candidates in the nearest scope that has any mean "no suggestion". And, for the
// codemod, the id of what is published: `js.publish(subject, encode(order))` where `order`
// visibly has an `id` (its type says so, or the code reads `order.id`).
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import { MESSAGE_ID_FIELDS as ID_FIELDS, msgIdCandidateOf } from '../../src/knowledge/jetstream.js';
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

/** The id field a type annotation declares (`{ id: string }`, an interface or type alias of this file that has one), if any. */
function typeIdField(type: Node | undefined, program: TSESTree.Program, depth = 0): string | undefined {
  if (!type || depth > 3) return undefined;
  if (type.type === 'TSTypeAnnotation') return typeIdField(type.typeAnnotation, program, depth);
  const idMember = (members: readonly Node[]): string | undefined => {
    const names = new Set(members.flatMap((m) => (m.type === 'TSPropertySignature' && m.key.type === 'Identifier' ? [m.key.name] : [])));
    return ID_FIELDS.find((field) => names.has(field));
  };
  if (type.type === 'TSTypeLiteral') return idMember(type.members);
  if (type.type === 'TSIntersectionType') {
    for (const part of type.types) {
      const field = typeIdField(part, program, depth + 1);
      if (field) return field;
    }
    return undefined;
  }
  if (type.type !== 'TSTypeReference' || type.typeName.type !== 'Identifier') return undefined;
  const name = type.typeName.name;
  for (const statement of program.body) {
    const declaration = statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement;
    if (declaration?.type === 'TSInterfaceDeclaration' && declaration.id.name === name) return idMember(declaration.body.body);
    if (declaration?.type === 'TSTypeAliasDeclaration' && declaration.id.name === name)
      return typeIdField(declaration.typeAnnotation, program, depth + 1);
  }
  return undefined;
}

/** The id field a variable visibly has: `id` when the code reads `x.id`, else the one its annotation (or its loop's typed iterable) declares. */
function visibleIdField(variable: TSESLint.Scope.Variable, sourceCode: Readonly<TSESLint.SourceCode>): string | undefined {
  const readsId = variable.references.some((r) => {
    const parent = (r.identifier as Node).parent;
    return parent?.type === 'MemberExpression' && parent.object === r.identifier && memberPropertyName(parent) === ID;
  });
  if (readsId) return ID;
  const def = variable.defs[0];
  if (!def) return undefined;
  return typeIdField(annotationOf(def), sourceCode.ast) ?? elementIdField(def.node as Node, sourceCode);
}

/** The type annotation on a variable's declaration (a parameter or a `const`). */
function annotationOf(def: TSESLint.Scope.Definition | undefined): TSESTree.TSTypeAnnotation | undefined {
  return (def?.name as TSESTree.Identifier | undefined)?.typeAnnotation;
}

/** `for (const row of rows)` where `rows` is annotated `T[]` / `Array<T>` / `readonly T[]`: the id field of `T`. */
function elementIdField(declarator: Node, sourceCode: Readonly<TSESLint.SourceCode>): string | undefined {
  const loop = declarator.parent?.parent;
  if (loop?.type !== 'ForOfStatement' || loop.right.type !== 'Identifier') return undefined;
  const iterable = scopeVariable(sourceCode, loop.right);
  let type = annotationOf(iterable?.defs[0])?.typeAnnotation;
  if (type?.type === 'TSTypeOperator') type = type.typeAnnotation;
  if (type?.type === 'TSArrayType') return typeIdField(type.elementType, sourceCode.ast);
  if (type?.type === 'TSTypeReference' && type.typeName.type === 'Identifier' && /^(?:Readonly)?Array$/.test(type.typeName.name))
    return typeIdField(type.typeArguments?.params[0], sourceCode.ast);
  return undefined;
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
  const variable = scopeVariable(sourceCode, first);
  const def = variable?.defs[0];
  if (!variable || !def) return undefined;
  const field = visibleIdField(variable, sourceCode);
  if (field) return `${first.name}.${field}`;
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
  variable: TSESLint.Scope.Variable;
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
    if (candidate) list.push({ ...candidate, declaredAt: kind === 'Variable' ? def.name.range[0] : undefined, variable });
  }
  candidatesByScope.set(scope, list);
  return list;
}

/**
 * The message id in scope at `call`, and whether it is seen to be one: a variable that is itself an
 * id (`outboxId`), or a holder (`record`) whose `.id` the code reads or whose type declares it. A
 * holder named like a row with no visible id is only a guess — `String(record.id)` of a value without
 * an id is `"undefined"` for every message, and JetStream would drop all but the first as duplicates.
 */
export function msgIdCandidate(
  sourceCode: Readonly<TSESLint.SourceCode>,
  call: TSESTree.Node,
): { text: string; seen: boolean } | undefined {
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
    const [only] = ofBest;
    if (ofBest.length !== 1 || !only) return undefined;
    return { text: only.text, seen: only.text === only.variable.name || visibleIdField(only.variable, sourceCode) === ID };
  }
  return undefined;
}
