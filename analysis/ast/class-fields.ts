// Per class: every value or type annotation each field (`js`, `#js`) is given anywhere in the
// class — a field initialiser, a field or constructor parameter-property annotation, or a
// `this.js = …` assignment — so a `this.js.publish(…)` can be traced to what `js` holds.
import type { TSESTree } from '@typescript-eslint/utils';
import { memberPropertyName, propertyKeyName } from './property-names.js';

type Node = TSESTree.Node;

/** The name of a class member or `this` member as written, private ones with their `#`. */
export function fieldName(node: TSESTree.PropertyDefinition | TSESTree.MemberExpression): string | undefined {
  const key = node.type === 'MemberExpression' ? node.property : node.key;
  if (key.type === 'PrivateIdentifier') return `#${key.name}`;
  // A field's key reads like an object property's key (`js`, `'js'`, `['js']`).
  return node.type === 'MemberExpression' ? memberPropertyName(node) : propertyKeyName(node as unknown as TSESTree.Property);
}

/** The class a node sits in (the innermost one), if any. */
export function enclosingClass(node: Node): TSESTree.ClassDeclaration | TSESTree.ClassExpression | undefined {
  for (let n: Node | undefined = node.parent; n; n = n.parent) {
    if (n.type === 'ClassDeclaration' || n.type === 'ClassExpression') return n;
  }
  return undefined;
}

function declaredFields(body: TSESTree.ClassBody, add: (name: string | undefined, value: Node | null | undefined) => void): void {
  for (const member of body.body) {
    if (member.type === 'PropertyDefinition') {
      add(fieldName(member), member.value);
      add(fieldName(member), member.typeAnnotation);
    }
    if (member.type === 'MethodDefinition' && member.kind === 'constructor') {
      for (const param of member.value.params) {
        if (param.type !== 'TSParameterProperty') continue;
        const id = param.parameter.type === 'AssignmentPattern' ? param.parameter.left : param.parameter;
        if (id.type === 'Identifier') add(id.name, id.typeAnnotation);
      }
    }
  }
}

/** Per class node, its fields' values: a class is walked once per lint, however many of its members are asked about. */
const fieldsByClass = new WeakMap<TSESTree.ClassDeclaration | TSESTree.ClassExpression, ReadonlyMap<string, readonly Node[]>>();

/** Every value or annotation given to each field of `classNode` (walked once per class node). */
export function classFieldValues(
  classNode: TSESTree.ClassDeclaration | TSESTree.ClassExpression,
  visitorKeys: Record<string, readonly string[] | undefined>,
): ReadonlyMap<string, readonly Node[]> {
  const known = fieldsByClass.get(classNode);
  if (known) return known;
  const fields = new Map<string, Node[]>();
  const add = (name: string | undefined, value: Node | null | undefined) => {
    if (name === undefined || !value) return;
    const list = fields.get(name) ?? [];
    list.push(value);
    fields.set(name, list);
  };
  declaredFields(classNode.body, add);
  // `this.js = …` anywhere in the class, not inside a nested class (its `this` is another).
  const visit = (node: Node) => {
    if (node.type === 'AssignmentExpression' && node.left.type === 'MemberExpression' && node.left.object.type === 'ThisExpression') {
      add(fieldName(node.left), node.right);
    }
    for (const key of visitorKeys[node.type] ?? []) {
      const child = (node as unknown as Record<string, unknown>)[key];
      for (const c of Array.isArray(child) ? child : [child]) {
        const type = (c as Node | null)?.type;
        if (typeof type === 'string' && type !== 'ClassDeclaration' && type !== 'ClassExpression') visit(c as Node);
      }
    }
  };
  visit(classNode.body);
  fieldsByClass.set(classNode, fields);
  return fields;
}

/**
 * The values a field of the class around `member` (`this.store`) is given, without its type
 * annotations and without the `null` / `undefined` that stand in before it is set up.
 */
export function assignedFieldValues(
  member: TSESTree.MemberExpression,
  visitorKeys: Record<string, readonly string[] | undefined>,
): readonly Node[] {
  const name = fieldName(member);
  const owner = enclosingClass(member);
  const given = name === undefined || !owner ? [] : (classFieldValues(owner, visitorKeys).get(name) ?? []);
  return given.filter(
    (value) =>
      value.type !== 'TSTypeAnnotation' &&
      !(value.type === 'Literal' && value.value === null) &&
      !(value.type === 'Identifier' && value.name === 'undefined'),
  );
}
