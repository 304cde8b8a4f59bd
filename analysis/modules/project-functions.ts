// What a callee names, followed across the project: a same-file function or method, a function
// imported from a project module (named, default, namespace, `require`, re-exported), or a
// method of a service whose class the code names in a type annotation (`private readonly
// billing: BillingService`, NestJS constructor injection) or constructs (`this.x = new X()`).
import { scopeVariable } from '../ast/scope-variable.js';
import type { TSESTree } from '@typescript-eslint/utils';
import { containerProvidedClass } from '../ast/container-provided-class.js';
import { unwrapExpression } from '../ast/unwrapped-expression.js';
import type { DetectContext } from '../detect-context.js';
import { importedProjectModule, lintedModuleOf, projectModuleAt, type ProjectModule } from './project-module.js';
import { exportingStatements, staticName } from './exporting-statements.js';
import { commonJsExport, memberName, type Binding } from './common-js-export.js';

type FunctionLike = TSESTree.FunctionDeclaration | TSESTree.FunctionExpression | TSESTree.ArrowFunctionExpression;
type ClassLike = TSESTree.ClassDeclaration | TSESTree.ClassExpression;

export interface ProjectFunction {
  fn: FunctionLike;
  module: ProjectModule;
  /** The function's, export's or method's name. */
  name: string;
  /** For a method: its class's name. */
  className?: string;
}

/** How many re-export and alias hops are followed before giving up. */
const MAX_HOPS = 4;

const isFunctionLike = (node: TSESTree.Node | null | undefined): node is FunctionLike =>
  node?.type === 'FunctionDeclaration' || node?.type === 'FunctionExpression' || node?.type === 'ArrowFunctionExpression';

/** What a local identifier is bound to: a declaration in this module, or an export of another. */
function bindingOf(module: ProjectModule, identifier: TSESTree.Identifier): Binding | undefined {
  const variable = scopeVariable(module.sourceCode, identifier);
  const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
  if (!def) return undefined;
  const node = def.node as TSESTree.Node;
  if (def.type === 'FunctionName' || def.type === 'ClassName') return { kind: 'node', node, module, name: identifier.name };
  if (def.type === 'ImportBinding') {
    const declaration = node.parent;
    if (declaration?.type !== 'ImportDeclaration') return undefined;
    const target = importedProjectModule(module, declaration.source.value);
    if (!target) return undefined;
    if (node.type === 'ImportNamespaceSpecifier') return { kind: 'module', module: target };
    if (node.type === 'ImportDefaultSpecifier') return { kind: 'export', module: target, name: 'default' };
    if (node.type === 'ImportSpecifier') return { kind: 'export', module: target, name: staticName(node.imported) ?? '' };
    return undefined;
  }
  if (def.type === 'Variable' && node.type === 'VariableDeclarator' && node.init) {
    const init = unwrapExpression(node.init, { await: true });
    const required = requiredModule(module, init);
    if (required) {
      if (node.id.type === 'Identifier') return { kind: 'module', module: required };
      if (node.id.type === 'ObjectPattern') {
        const property = node.id.properties.find((p) => p.type === 'Property' && p.value === def.name);
        const key = property?.type === 'Property' ? staticName(property.key) : undefined;
        return key === undefined ? undefined : { kind: 'export', module: required, name: key };
      }
      return undefined;
    }
    if (node.id.type === 'Identifier') return { kind: 'node', node: init, module, name: identifier.name };
  }
  return undefined;
}

/** `require('./x')` → the project module x. */
function requiredModule(module: ProjectModule, node: TSESTree.Node): ProjectModule | undefined {
  if (node.type !== 'CallExpression' || node.callee.type !== 'Identifier' || node.callee.name !== 'require') return undefined;
  const source = node.arguments[0];
  return source?.type === 'Literal' && typeof source.value === 'string' ? importedProjectModule(module, source.value) : undefined;
}

/** `export * from …`: a module that may pass on any name. */
const STAR_EXPORT = /\bexport\s*\*/;

/** What a module exports as `name`: ESM declarations, export lists, re-exports, CommonJS `exports.x` / `module.exports = { x }`. */
export function exportedBinding(module: ProjectModule, name: string, hops = 0): Binding | undefined {
  if (hops > MAX_HOPS) return undefined;
  const local = (identifier: TSESTree.Identifier): Binding | undefined => bindingOf(module, identifier) ?? undefined;
  // Only the statements that may export `name` are asked (exporting-statements.ts), in source order.
  const { byName, stars: starModules } = exportingStatements(module.sourceCode.ast);
  for (const statement of byName.get(name) ?? []) {
    if (statement.type === 'ExportDefaultDeclaration' && name === 'default') {
      const declaration = statement.declaration;
      if (declaration.type === 'Identifier') return follow(local(declaration), hops);
      return { kind: 'node', node: declaration, module, name: 'default' };
    }
    if (statement.type === 'ExportNamedDeclaration') {
      const declaration = statement.declaration;
      if (
        declaration?.type === 'FunctionDeclaration' ||
        declaration?.type === 'ClassDeclaration' ||
        declaration?.type === 'TSDeclareFunction'
      ) {
        if (declaration.id?.name === name) return { kind: 'node', node: declaration, module, name };
      }
      if (declaration?.type === 'VariableDeclaration') {
        for (const declarator of declaration.declarations) {
          if (declarator.id.type === 'Identifier' && declarator.id.name === name && declarator.init) {
            return { kind: 'node', node: unwrapExpression(declarator.init), module, name };
          }
        }
      }
      for (const specifier of statement.specifiers) {
        if (specifier.type !== 'ExportSpecifier' || staticName(specifier.exported) !== name) continue;
        const localName = staticName(specifier.local) ?? name;
        if (statement.source) {
          const target = importedProjectModule(module, statement.source.value);
          return target ? exportedBinding(target, localName, hops + 1) : undefined;
        }
        if (specifier.local.type === 'Identifier') return follow(local(specifier.local), hops);
      }
    }
    const commonJs = commonJsExport(module, statement, name);
    if (commonJs) return follow(commonJs, hops);
  }
  // A module re-exported with `*` exports `name` only if its text spells it or re-exports in turn:
  // the others are not parsed for this question (a barrel names many modules).
  const mayExport = (text: string): boolean => text.includes(name) || STAR_EXPORT.test(text);
  for (const specifier of starModules) {
    const target = importedProjectModule(module, specifier, mayExport);
    const found = target && exportedBinding(target, name, hops + 1);
    if (found) return found;
  }
  return undefined;
}

/** An identifier binding resolved to what it finally holds (an alias of an alias of an import …). */
function follow(binding: Binding | undefined, hops: number): Binding | undefined {
  if (!binding || hops > MAX_HOPS) return binding;
  if (binding.kind === 'export') return exportedBinding(binding.module, binding.name, hops + 1);
  if (binding.kind === 'node' && binding.node.type === 'Identifier') return follow(bindingOf(binding.module, binding.node), hops + 1);
  return binding;
}

function asFunction(binding: Binding | undefined): ProjectFunction | undefined {
  if (binding?.kind !== 'node') return undefined;
  if (isFunctionLike(binding.node)) return { fn: binding.node, module: binding.module, name: binding.name };
  return undefined;
}

function asClass(binding: Binding | undefined): { node: ClassLike; module: ProjectModule } | undefined {
  if (binding?.kind !== 'node') return undefined;
  const node = binding.node;
  return node.type === 'ClassDeclaration' || node.type === 'ClassExpression' ? { node, module: binding.module } : undefined;
}

/** Each class body's first method or function-valued property per name, indexed once per class (a class is asked about often). */
const functionMembers = new WeakMap<TSESTree.ClassBody, Map<string, FunctionLike>>();
function functionMembersOf(body: TSESTree.ClassBody): Map<string, FunctionLike> {
  let byName = functionMembers.get(body);
  if (byName) return byName;
  byName = new Map();
  for (const member of body.body) {
    if (member.type !== 'MethodDefinition' && member.type !== 'PropertyDefinition') continue;
    const name = member.computed ? (member.key.type === 'Literal' ? staticName(member.key) : undefined) : staticName(member.key);
    const value = member.value;
    if (name !== undefined && isFunctionLike(value) && !byName.has(name)) byName.set(name, value);
  }
  functionMembers.set(body, byName);
  return byName;
}

/** A method (or arrow-valued property) `name` of a class, walking up `extends` a few steps. */
export function classMethod(cls: { node: ClassLike; module: ProjectModule }, name: string, hops = 0): ProjectFunction | undefined {
  const fn = functionMembersOf(cls.node.body).get(name);
  if (fn) return { fn, module: cls.module, name, className: cls.node.id?.name };
  const superClass = cls.node.superClass;
  if (superClass?.type === 'Identifier' && hops < MAX_HOPS) {
    const parent = asClass(follow(bindingOf(cls.module, superClass), 0));
    if (parent) return classMethod(parent, name, hops + 1);
  }
  return undefined;
}

/**
 * `export default { name: 'purge', async run() { … } }`, `export const jobs = { run: async () => … }`: the
 * function an object literal a module exports (or keeps) holds under `name`, a shorthand too (`{ run }`).
 */
function objectMethod(binding: Binding | undefined, name: string): ProjectFunction | undefined {
  if (binding?.kind !== 'node' || binding.node.type !== 'ObjectExpression') return undefined;
  for (const property of binding.node.properties) {
    if (property.type !== 'Property' || property.computed || staticName(property.key) !== name) continue;
    const value = unwrapExpression(property.value as TSESTree.Node);
    if (isFunctionLike(value)) return { fn: value, module: binding.module, name };
    return value.type === 'Identifier' ? asFunction(follow(bindingOf(binding.module, value), 0)) : undefined;
  }
  return undefined;
}

/** `export default new Tracker()`, `const tracker = new Tracker(); export { tracker }`: the class of a module's singleton. */
function singletonClass(binding: Binding | undefined): { node: ClassLike; module: ProjectModule } | undefined {
  if (binding?.kind !== 'node' || binding.node.type !== 'NewExpression' || binding.node.callee.type !== 'Identifier') return undefined;
  return asClass(follow(bindingOf(binding.module, binding.node.callee), 0));
}

function enclosingClass(node: TSESTree.Node): ClassLike | undefined {
  for (let current = node.parent; current; current = current.parent) {
    if (current.type === 'ClassDeclaration' || current.type === 'ClassExpression') return current;
  }
  return undefined;
}

/** The class a type annotation names (`BillingService`, `BillingService | undefined`), resolved in `module`. */
function classOfType(module: ProjectModule, annotation: TSESTree.Node | undefined): { node: ClassLike; module: ProjectModule } | undefined {
  if (!annotation) return undefined;
  if (annotation.type === 'TSTypeAnnotation') return classOfType(module, annotation.typeAnnotation);
  if (annotation.type === 'TSUnionType') {
    for (const type of annotation.types) {
      const found = classOfType(module, type);
      if (found) return found;
    }
    return undefined;
  }
  if (annotation.type !== 'TSTypeReference') return undefined;
  const typeName = annotation.typeName;
  if (typeName.type === 'Identifier') return asClass(follow(bindingOf(module, typeName), 0));
  if (typeName.type === 'TSQualifiedName' && typeName.left.type === 'Identifier') {
    const namespace = bindingOf(module, typeName.left);
    return namespace?.kind === 'module' ? asClass(follow(exportedBinding(namespace.module, typeName.right.name), 0)) : undefined;
  }
  return undefined;
}

/** The class of `this.<field>` inside `cls`: a parameter property's type, a field's type, or `this.f = new X()`. */
function classOfField(module: ProjectModule, cls: ClassLike, field: string): { node: ClassLike; module: ProjectModule } | undefined {
  for (const member of cls.body.body) {
    if (member.type === 'PropertyDefinition' && !member.computed && staticName(member.key) === field) {
      const byType = classOfType(module, member.typeAnnotation);
      if (byType) return byType;
      const value = member.value && unwrapExpression(member.value);
      if (value?.type === 'NewExpression' && value.callee.type === 'Identifier') return asClass(follow(bindingOf(module, value.callee), 0));
    }
    if (member.type === 'MethodDefinition' && member.kind === 'constructor') {
      for (const param of member.value.params) {
        const id = param.type === 'TSParameterProperty' ? param.parameter : undefined;
        const identifier = id?.type === 'AssignmentPattern' ? id.left : id;
        if (identifier?.type === 'Identifier' && identifier.name === field) return classOfType(module, identifier.typeAnnotation);
      }
    }
  }
  return undefined;
}

/** The class an expression is an instance of, when the code says so. */
function classOfValue(module: ProjectModule, node: TSESTree.Node): { node: ClassLike; module: ProjectModule } | undefined {
  const value = unwrapExpression(node, { await: true });
  if (value.type === 'MemberExpression' && value.object.type === 'ThisExpression') {
    const cls = enclosingClass(value);
    const field = memberName(value);
    return cls && field !== undefined ? classOfField(module, cls, field) : undefined;
  }
  // `this.repos.payments.next()`: a field of an instance whose class the code names, read in that class's module.
  if (value.type === 'MemberExpression' && !value.computed) {
    const owner = classOfValue(module, value.object);
    const field = memberName(value);
    if (owner && field !== undefined) return classOfField(owner.module, owner.node, field);
  }
  if (value.type === 'Identifier') {
    const variable = scopeVariable(module.sourceCode, value);
    const def = variable?.defs.length === 1 ? variable.defs[0] : undefined;
    const declared = def?.name as TSESTree.Identifier | undefined;
    const byType = classOfType(module, declared?.typeAnnotation);
    if (byType) return byType;
    const init = def?.node.type === 'VariableDeclarator' && def.node.init ? unwrapExpression(def.node.init, { await: true }) : undefined;
    if (init?.type === 'NewExpression' && init.callee.type === 'Identifier') return asClass(follow(bindingOf(module, init.callee), 0));
  }
  // `new TicketCreatedPublisher(js).publish(…)`: the instance made on the spot, as when it is kept in a `const` first.
  if (value.type === 'NewExpression' && value.callee.type === 'Identifier') return asClass(follow(bindingOf(module, value.callee), 0));
  // `app.get(BillingService).settle()`: the instance a container hands out for the class.
  const provided = containerProvidedClass(value);
  if (provided) return asClass(follow(bindingOf(module, provided), 0));
  return undefined;
}

interface TypedParserServices {
  program?: { getTypeChecker(): TypeChecker };
  esTreeNodeToTSNodeMap?: { get(node: TSESTree.Node): unknown };
}
interface TypeChecker {
  getTypeAtLocation(node: unknown): {
    getSymbol(): { name: string; declarations?: { getSourceFile(): { fileName: string } }[] } | undefined;
  };
}

/**
 * With type information (`parserOptions.projectService`), the class the checker says a value is
 * (`const svc = container.get(BillingService)`), found by name in the project module that
 * declares it. Only the linted file has a checker; the modules it imports are parsed without.
 */
function classOfCheckedType(module: ProjectModule, node: TSESTree.Node): { node: ClassLike; module: ProjectModule } | undefined {
  const services = module.sourceCode.parserServices as TypedParserServices | undefined;
  if (!services?.program || !services.esTreeNodeToTSNodeMap) return undefined;
  const symbol = services.program.getTypeChecker().getTypeAtLocation(services.esTreeNodeToTSNodeMap.get(node)).getSymbol();
  const file = symbol?.declarations?.[0]?.getSourceFile().fileName;
  if (!symbol || !file || /[\\/]node_modules[\\/]/.test(file)) return undefined;
  const declaring = file === module.path ? module : projectModuleAt(file, module.context);
  if (!declaring) return undefined;
  const binding = bindingInModule(declaring, symbol.name);
  return asClass(binding);
}

/** A top-level class or function declared in `module` under `name`, exported or not. */
function bindingInModule(module: ProjectModule, name: string): Binding | undefined {
  for (const statement of module.sourceCode.ast.body) {
    const declaration =
      statement.type === 'ExportNamedDeclaration' || statement.type === 'ExportDefaultDeclaration' ? statement.declaration : statement;
    if ((declaration?.type === 'ClassDeclaration' || declaration?.type === 'FunctionDeclaration') && declaration.id?.name === name) {
      return { kind: 'node', node: declaration, module, name };
    }
  }
  return undefined;
}

/** The project function `callee` (a call's callee, or a function passed by name) refers to from `module`. */
export function projectFunctionInModule(module: ProjectModule, callee: TSESTree.Node): ProjectFunction | undefined {
  try {
    const node = unwrapExpression(callee);
    if (isFunctionLike(node)) return { fn: node, module, name: '' };
    if (node.type === 'Identifier') {
      const binding = follow(bindingOf(module, node), 0);
      // `const sweep = require('./sweep'); sweep()`: the module's `module.exports = fn`.
      return asFunction(binding?.kind === 'module' ? follow(exportedBinding(binding.module, 'default'), 0) : binding);
    }
    if (node.type !== 'MemberExpression') return undefined;
    const name = memberName(node);
    if (name === undefined) return undefined;
    const object = unwrapExpression(node.object, { await: true });
    if (object.type === 'ThisExpression') {
      const cls = enclosingClass(object);
      return cls ? classMethod({ node: cls, module }, name) : undefined;
    }
    if (object.type === 'Identifier') {
      const binding = follow(bindingOf(module, object), 0);
      if (binding?.kind === 'module') return asFunction(follow(exportedBinding(binding.module, name), 0));
      const staticClass = asClass(binding) ?? singletonClass(binding);
      if (staticClass) return classMethod(staticClass, name);
      const method = objectMethod(binding, name);
      if (method) return method;
    }
    // `tasks.purgeUploads.run()` with `import * as tasks`: an object a module exports.
    if (object.type === 'MemberExpression' && object.object.type === 'Identifier') {
      const namespace = follow(bindingOf(module, object.object), 0);
      const exported = memberName(object);
      if (namespace?.kind === 'module' && exported !== undefined) {
        const method = objectMethod(follow(exportedBinding(namespace.module, exported), 0), name);
        if (method) return method;
      }
    }
    const instanceClass = classOfValue(module, object) ?? classOfCheckedType(module, object);
    return instanceClass ? classMethod(instanceClass, name) : undefined;
  } catch {
    return undefined;
  }
}

/** The project function `callee` in the linted file refers to. */
export function projectFunctionOf(context: DetectContext, callee: TSESTree.Node): ProjectFunction | undefined {
  return projectFunctionInModule(lintedModuleOf(context), callee);
}

/** The same question asked inside a function found earlier (for walks across modules). */
export function projectFunctionIn(fn: ProjectFunction, callee: TSESTree.Node): ProjectFunction | undefined {
  return projectFunctionInModule(fn.module, callee);
}

/** The value an identifier holds: a same-file `const`, or what a project module exports under the imported name. */
export function projectValueOf(
  context: DetectContext,
  identifier: TSESTree.Identifier,
): { node: TSESTree.Node; module: ProjectModule } | undefined {
  try {
    const binding = follow(bindingOf(lintedModuleOf(context), identifier), 0);
    return binding?.kind === 'node' ? { node: binding.node, module: binding.module } : undefined;
  } catch {
    return undefined;
  }
}
