// Session advisory locks taken through a lock library (`src/knowledge/lock-libraries.ts`): the
// file writes no SQL, but `mutex.tryLock()` on a mutex the library made runs
// `pg_try_advisory_lock` on the library's own connection. A mutex is told by where it comes from:
// the library's factory (`advisoryLock(url)('job')`, or a `createMutex = advisoryLock(url)` called
// with a name), kept in a variable or a class field, or a parameter whose type the file derives
// from the factory (`ReturnType<ReturnType<typeof advisoryLock>>`); for a library whose mutexes
// are constructed (`new PGMutexLock(opts)`), the `new` or the class named as a type.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { moduleBindings } from '../../analysis/imports/module-bindings.js';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { assignedFieldValues } from '../../analysis/ast/class-fields.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { sessionLockLibrary, type SessionLockLibrary } from '../../src/knowledge/lock-libraries.js';

type Node = TSESTree.Node;
type SourceCode = Readonly<TSESLint.SourceCode>;

export interface LibraryLock {
  library: SessionLockLibrary;
  /** The mutex method called (`tryLock`). */
  method: string;
  /** The SQL function it runs (`pg_try_advisory_lock`). */
  functionName: string;
  /** The node naming the method (the squiggle). */
  name: TSESTree.Node;
}

const MAX_DEPTH = 4;

/** Reads one file's lock-library mutexes; made once per file that imports such a library. */
export class LibraryLocks {
  private readonly factories = new Map<string, SessionLockLibrary>();

  constructor(private readonly sourceCode: SourceCode) {
    for (const [name, specifier] of moduleBindings(sourceCode.ast)) {
      const library = sessionLockLibrary(specifier);
      if (library) this.factories.set(name, library);
    }
  }

  /** Whether the file binds a lock library at all (the rest is asked only then). */
  get any(): boolean {
    return this.factories.size > 0;
  }

  /** The library a call of the lock method in `call` goes to, when its receiver is one of the library's mutexes. */
  lockOf(call: TSESTree.CallExpression): LibraryLock | undefined {
    const callee = unwrapExpression(call.callee);
    if (callee.type !== 'MemberExpression') return undefined;
    const method = memberPropertyName(callee);
    if (method === undefined) return undefined;
    const library = this.mutexOf(callee.object, 0);
    const functionName = library && Object.hasOwn(library.locks, method) ? library.locks[method] : undefined;
    return library && functionName ? { library, method, functionName, name: callee.property } : undefined;
  }

  /** `advisoryLock` or `advisoryLock.default` (CommonJS), bound to a lock library. */
  private factoryOf(node: Node): SessionLockLibrary | undefined {
    const value = unwrapExpression(node);
    if (value.type === 'Identifier') return this.factories.get(value.name);
    if (value.type === 'MemberExpression' && memberPropertyName(value) === 'default' && value.object.type === 'Identifier')
      return this.factories.get(value.object.name);
    return undefined;
  }

  /** The library whose mutex factory `node` is: `advisoryLock(url)`, or a variable holding it. */
  private mutexFactoryOf(node: Node, depth: number): SessionLockLibrary | undefined {
    const value = unwrapExpression(node, { await: true });
    if (value.type === 'CallExpression') return this.factoryOf(value.callee);
    if (value.type === 'Identifier' && depth < MAX_DEPTH) {
      const def = scopeVariable(this.sourceCode, value)?.defs[0];
      if (def?.node.type === 'VariableDeclarator' && def.node.id === def.name && def.node.init)
        return this.mutexFactoryOf(def.node.init, depth + 1);
    }
    return undefined;
  }

  /** The library whose mutex `node` is, as far as the file shows it. */
  private mutexOf(node: Node, depth: number): SessionLockLibrary | undefined {
    if (depth > MAX_DEPTH) return undefined;
    const value = unwrapExpression(node, { await: true });
    if (value.type === 'CallExpression') return this.mutexFactoryOf(value.callee, depth + 1);
    // `new PGMutexLock(opts)`: a library whose mutexes are constructed.
    if (value.type === 'NewExpression') {
      const library = this.factoryOf(value.callee);
      return library?.made === 'class' ? library : undefined;
    }
    if (value.type === 'MemberExpression' && value.object.type === 'ThisExpression') {
      const visitorKeys = this.sourceCode.visitorKeys as Record<string, readonly string[] | undefined>;
      for (const given of assignedFieldValues(value, visitorKeys)) {
        const library = this.mutexOf(given, depth + 1);
        if (library) return library;
      }
      return undefined;
    }
    if (value.type !== 'Identifier') return undefined;
    const variable = scopeVariable(this.sourceCode, value);
    for (const def of variable?.defs ?? []) {
      const annotation = (def.name as TSESTree.Identifier).typeAnnotation;
      const typed = annotation ? this.typeNamesFactory(annotation, 0) : undefined;
      if (typed) return typed;
      if (def.node.type === 'VariableDeclarator' && def.node.id === def.name && def.node.init) {
        const library = this.mutexOf(def.node.init, depth + 1);
        if (library) return library;
      }
    }
    return undefined;
  }

  /** Whether a type is built from the factory's type (`typeof advisoryLock`), through the file's type aliases. */
  private typeNamesFactory(type: Node, depth: number): SessionLockLibrary | undefined {
    if (depth > MAX_DEPTH) return undefined;
    let found: SessionLockLibrary | undefined;
    const visit = (node: Node): void => {
      if (found) return;
      if (node.type === 'TSTypeQuery' && node.exprName.type === 'Identifier') found = this.factories.get(node.exprName.name);
      else if (node.type === 'TSTypeReference' && node.typeName.type === 'Identifier') {
        // `mutex: PGMutexLock`: the class is the mutex's type.
        const named = this.factories.get(node.typeName.name);
        if (named?.made === 'class') found = named;
        const alias = found ? undefined : this.typeAlias(node.typeName.name);
        if (alias) found = this.typeNamesFactory(alias.typeAnnotation, depth + 1);
      }
      for (const key of this.sourceCode.visitorKeys[node.type] ?? []) {
        const child = (node as unknown as Record<string, unknown>)[key];
        for (const c of Array.isArray(child) ? child : [child]) if (c && typeof (c as Node).type === 'string' && !found) visit(c as Node);
      }
    };
    visit(type);
    return found;
  }

  private typeAlias(name: string): TSESTree.TSTypeAliasDeclaration | undefined {
    for (const statement of this.sourceCode.ast.body) {
      const declaration = statement.type === 'ExportNamedDeclaration' ? statement.declaration : statement;
      if (declaration?.type === 'TSTypeAliasDeclaration' && declaration.id.name === name) return declaration;
    }
    return undefined;
  }
}
