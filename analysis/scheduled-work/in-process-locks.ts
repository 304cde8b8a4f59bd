// A lock call whose lock lives in this process: the receiver holds what a constructor (or
// factory) of an in-process lock package made — `const mutex = new Mutex()` from async-mutex,
// `this.lock = new AsyncLock()`, `{ mutex: new Mutex() }`, `withTimeout(new Mutex(), ms)`. Its name
// says "lock", but it only keeps one process's ticks from overlapping: every replica still runs
// the work. Asked only of a call already named for a lock, in a file that imports such a package.
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { declaredVariables } from '../ast/declared-variables.js';
import { memberPropertyName, propertyKeyName } from '../ast/property-names.js';
import { receiverName } from '../ast/receiver-name.js';
import { unwrapExpression } from '../ast/unwrapped-expression.js';
import { requiredSpecifier } from '../imports/module-bindings.js';
import { IN_PROCESS_LOCK_MODULES } from '../../src/knowledge/per-replica.js';
import { valueOf } from './in-memory-values.js';

/** How many calls a made lock may sit in (`withTimeout(new Mutex(), ms)`) before the name it is kept under. */
const MAX_WRAPPERS = 2;

/** The top-level declarations binding an in-process lock package (its import specifiers, its `require` declarator). */
function lockPackageDeclarations(program: TSESTree.Program): TSESTree.Node[] {
  const found: TSESTree.Node[] = [];
  for (const statement of program.body) {
    if (statement.type === 'ImportDeclaration' && IN_PROCESS_LOCK_MODULES.includes(statement.source.value))
      found.push(...statement.specifiers);
    if (statement.type !== 'VariableDeclaration') continue;
    for (const declarator of statement.declarations)
      if (IN_PROCESS_LOCK_MODULES.includes(requiredSpecifier(declarator.init) ?? '')) found.push(declarator);
  }
  return found;
}

/**
 * The name a value is kept under when it is written or read at `node`: a variable, a member
 * (`this.mutex`), or the collection it is an element of (`this.locks[chainId]`, `locks.get(id)`).
 */
function heldUnder(node: TSESTree.Node): string | undefined {
  const value = unwrapExpression(node);
  if (value.type === 'Identifier') return value.name;
  if (value.type === 'MemberExpression') return value.computed ? receiverName(unwrapExpression(value.object)) : memberPropertyName(value);
  if (value.type !== 'CallExpression' || value.callee.type !== 'MemberExpression' || memberPropertyName(value.callee) !== 'get')
    return undefined;
  return receiverName(unwrapExpression(value.callee.object));
}

/** The name a made lock is kept under: its variable, property, field or assigned member. */
function keptUnder(made: TSESTree.Node): string | undefined {
  let value: TSESTree.Node = made;
  for (let depth = 0; depth <= MAX_WRAPPERS; depth++) {
    const parent = value.parent;
    if (!parent) return undefined;
    if (parent.type === 'VariableDeclarator' && parent.init === value) return parent.id.type === 'Identifier' ? parent.id.name : undefined;
    if (parent.type === 'Property' && parent.value === value) return propertyKeyName(parent);
    if (parent.type === 'PropertyDefinition' && parent.value === value) return propertyKeyName(parent as unknown as TSESTree.Property);
    if (parent.type === 'AssignmentExpression' && parent.right === value) return heldUnder(parent.left);
    if (parent.type !== 'CallExpression' || !parent.arguments.includes(value as TSESTree.CallExpressionArgument)) return undefined;
    value = parent;
  }
  return undefined;
}

/** The names this file keeps in-process locks under (cached per file). */
const lockNames = new WeakMap<TSESTree.Program, ReadonlySet<string>>();

function inProcessLockNames(sourceCode: SourceCode): ReadonlySet<string> {
  const program = sourceCode.ast;
  let names = lockNames.get(program);
  if (names) return names;
  const found = new Set<string>();
  for (const declaration of lockPackageDeclarations(program)) {
    for (const variable of declaredVariables(sourceCode, declaration)) {
      for (const { identifier } of variable.references) {
        // `new Mutex()`, `new locks.Mutex()`, `mutexify()`: what the package makes.
        let made: TSESTree.Node = identifier;
        while (made.parent?.type === 'MemberExpression' && made.parent.object === made) made = made.parent;
        const maker = made.parent;
        if ((maker?.type !== 'NewExpression' && maker?.type !== 'CallExpression') || maker.callee !== made) continue;
        const name = keptUnder(maker);
        if (name !== undefined) found.add(name);
      }
    }
  }
  lockNames.set(program, (names = found));
  return names;
}

/** `mutex.runExclusive(…)`, `this.lock.acquire(…)`, `scanner.mutex.isLocked()` on a lock of an in-process package. */
export function locksThisProcessOnly(sourceCode: SourceCode, call: TSESTree.CallExpression): boolean {
  const callee = unwrapExpression(call.callee);
  if (callee.type !== 'MemberExpression') return false;
  const names = inProcessLockNames(sourceCode);
  if (names.size === 0) return false;
  const object = unwrapExpression(callee.object);
  if (names.has(heldUnder(object) ?? '')) return true;
  // `const mutex = this.locks[chainId]; mutex.runExclusive(…)`: the variable holds one of the collection's locks.
  const init = object.type === 'Identifier' ? valueOf(sourceCode, object) : undefined;
  return init !== undefined && names.has(heldUnder(init) ?? '');
}
