// Whether the receiver of a migrator method is one of the library's objects (`RECEIVER_EVIDENCE`):
// `sequelize.sync()` and `User.sync()` are Sequelize's schema writes, `glob.sync(pattern)` and
// `this.collection.sync()` are not, even in a file that imports Sequelize. Read from the code as
// written, never throwing: what the receiver's name, its annotation, its `const` initialiser, its
// import or its class says. Asked only of calls whose method name and file already fit an entry.
import { typeReferenceName } from '../../analysis/ast/type-reference-name.js';
import { assignedValues } from '../../analysis/ast/assigned-values.js';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { memberPropertyName, propertyKeyName } from '../../analysis/ast/property-names.js';
import type { ReceiverEvidence } from '../../src/knowledge/migrator-receivers.js';

type SourceCode = Readonly<TSESLint.SourceCode>;
/** How many names (a `const` for a `const`, a class for its superclass) are followed. */
const MAX_DEPTH = 3;

/** The type an annotation names: `Sequelize`, `ModelStatic<User>` → `ModelStatic`, `typeof User` → the `User` identifier. */
function annotatedType(annotation: TSESTree.Node | undefined): string | TSESTree.Identifier | undefined {
  const named = typeReferenceName(annotation);
  if (named !== undefined) return named;
  const type = annotation?.type === 'TSTypeAnnotation' ? annotation.typeAnnotation : annotation;
  if (type?.type === 'TSTypeQuery' && type.exprName.type === 'Identifier') return type.exprName;
  return undefined;
}

function annotationFits(
  evidence: ReceiverEvidence,
  annotation: TSESTree.Node | undefined,
  sourceCode: SourceCode | undefined,
  depth: number,
): boolean {
  const written = annotation?.type === 'TSTypeAnnotation' ? annotation.typeAnnotation : annotation;
  // `Sequelize | null`: a member of the union that fits.
  if (written?.type === 'TSUnionType') return written.types.some((member) => annotationFits(evidence, member, sourceCode, depth));
  const type = annotatedType(annotation);
  if (typeof type === 'string') return evidence.types.test(type);
  return type !== undefined && identifierFits(evidence, type, sourceCode, depth + 1);
}

/** `this.sequelize` in a class whose field or constructor parameter says what it holds. */
function classFieldFits(
  evidence: ReceiverEvidence,
  node: TSESTree.MemberExpression,
  sourceCode: SourceCode | undefined,
  depth: number,
): boolean {
  const field = memberPropertyName(node);
  let body: TSESTree.Node | undefined = node.parent;
  while (body && body.type !== 'ClassBody') body = body.parent;
  if (!field || body?.type !== 'ClassBody') return false;
  for (const member of body.body) {
    if (member.type === 'PropertyDefinition' && propertyKeyName(member as unknown as TSESTree.Property) === field)
      return (
        annotationFits(evidence, member.typeAnnotation, sourceCode, depth) ||
        (member.value !== null && fits(evidence, member.value, sourceCode, depth + 1))
      );
    if (member.type !== 'MethodDefinition' || member.kind !== 'constructor') continue;
    for (const parameter of member.value.params) {
      const identifier = parameter.type === 'TSParameterProperty' ? parameter.parameter : undefined;
      if (identifier?.type === 'Identifier' && identifier.name === field)
        return annotationFits(evidence, identifier.typeAnnotation, sourceCode, depth);
    }
  }
  return false;
}

/**
 * What the definition of a name says: an import from the library, an annotation, an initialiser, a
 * subclass of the library's class. `modelClass`: the name is used as a model class itself (a
 * receiver, a superclass), where a class of the project counts; a class that is constructed does not.
 */
function identifierFits(
  evidence: ReceiverEvidence,
  node: TSESTree.Identifier,
  sourceCode: SourceCode | undefined,
  depth: number,
  modelClass = true,
): boolean {
  if (evidence.names.test(node.name)) return true;
  if (!sourceCode || depth > MAX_DEPTH) return false;
  const variable = scopeVariable(sourceCode, node);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  const projectClass = modelClass && evidence.projectClasses && /^[A-Z]/.test(node.name);
  if (def?.type === 'ImportBinding' && def.parent?.type === 'ImportDeclaration') {
    const source = def.parent.source.value;
    return evidence.modules.includes(source) || (projectClass && source.startsWith('.'));
  }
  if (def?.type === 'Parameter') return annotationFits(evidence, (def.name as TSESTree.Identifier).typeAnnotation, sourceCode, depth);
  if (def?.type === 'ClassName' && (def.node.type === 'ClassDeclaration' || def.node.type === 'ClassExpression'))
    return def.node.superClass !== null && fits(evidence, def.node.superClass, sourceCode, depth + 1);
  if (def?.type !== 'Variable' || def.node.type !== 'VariableDeclarator') return false;
  if (def.node.id.type === 'Identifier' && annotationFits(evidence, def.node.id.typeAnnotation, sourceCode, depth)) return true;
  // A `let` given its client later (`let db = null; … db = new Sequelize(url)`): a value it is given that fits.
  if (def.parent?.type === 'VariableDeclaration' && def.parent.kind !== 'const') {
    const given = assignedValues(sourceCode, node).values.filter((value) => value !== def.node.init);
    if (given.some((value) => fits(evidence, value, sourceCode, depth + 1))) return true;
  }
  const init = def.node.init && unwrapExpression(def.node.init, { await: true });
  if (!init) return false;
  // `const User = require('./models/user')`: a model class of the project.
  const required =
    init.type === 'CallExpression' && init.callee.type === 'Identifier' && init.callee.name === 'require' ? init.arguments[0] : undefined;
  if (required?.type === 'Literal' && typeof required.value === 'string')
    return evidence.modules.includes(required.value) || (projectClass && required.value.startsWith('.'));
  return fits(evidence, init, sourceCode, depth + 1);
}

function fits(evidence: ReceiverEvidence, receiver: TSESTree.Node, sourceCode: SourceCode | undefined, depth: number): boolean {
  const node = unwrapExpression(receiver, { await: true });
  if (node.type === 'Identifier') return identifierFits(evidence, node, sourceCode, depth);
  if (node.type === 'NewExpression') {
    const callee = unwrapExpression(node.callee);
    return (
      callee.type === 'Identifier' &&
      (evidence.classes.includes(callee.name) || identifierFits(evidence, callee, sourceCode, depth + 1, false))
    );
  }
  if (node.type === 'CallExpression') {
    // `sequelize.define('user', attributes)` returns a model.
    const callee = unwrapExpression(node.callee);
    const method = callee.type === 'MemberExpression' ? memberPropertyName(callee) : undefined;
    return (
      callee.type === 'MemberExpression' &&
      method !== undefined &&
      evidence.makers.includes(method) &&
      fits(evidence, callee.object, sourceCode, depth + 1)
    );
  }
  if (node.type !== 'MemberExpression') return false;
  const name = memberPropertyName(node);
  if (name !== undefined && evidence.names.test(name)) return true;
  const object = unwrapExpression(node.object);
  if (object.type === 'ThisExpression') return classFieldFits(evidence, node, sourceCode, depth);
  // `db[name]`, `db.Order`: an entry of an object the file fills with the library's models.
  return (
    evidence.projectClasses &&
    (name === undefined || /^[A-Z]/.test(name)) &&
    object.type === 'Identifier' &&
    registryFits(evidence, object, sourceCode, depth)
  );
}

/**
 * Whether `registry` is an object the file fills with the library's objects: `db[model.name] = model`,
 * `db.Order = require('./order')(sequelize, DataTypes)` (a model factory handed the client), `db.User = sequelize.define(…)`.
 */
function registryFits(
  evidence: ReceiverEvidence,
  registry: TSESTree.Identifier,
  sourceCode: SourceCode | undefined,
  depth: number,
): boolean {
  if (!sourceCode || depth > MAX_DEPTH) return false;
  const variable = scopeVariable(sourceCode, registry);
  return (variable?.references ?? []).some((reference) => {
    const member = reference.identifier.parent;
    const assignment = member?.parent;
    if (member?.type !== 'MemberExpression' || member.object !== reference.identifier) return false;
    if (assignment?.type !== 'AssignmentExpression' || assignment.left !== member) return false;
    const value = unwrapExpression(assignment.right, { await: true });
    if (fits(evidence, value, sourceCode, depth + 1)) return true;
    return value.type === 'CallExpression' && value.arguments.some((argument) => fits(evidence, argument, sourceCode, depth + 1));
  });
}

/** Whether `receiver` shows itself to be one of the library's objects (see the file's head). */
export function receiverShowsLibrary(evidence: ReceiverEvidence, receiver: TSESTree.Node, sourceCode?: SourceCode): boolean {
  try {
    return fits(evidence, receiver, sourceCode, 0);
  } catch {
    return false;
  }
}
