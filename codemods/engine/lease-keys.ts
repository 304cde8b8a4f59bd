// Lease keys unique per job across a whole run. Transforms name a key after its job
// (`<service>:<job>`), which repeats: two files each with `async function sweep()`, two classes
// with `run()`, anonymous callbacks named after their file. After the per-file phase every key a
// run wrote is known (the first string argument of a lease-taking guard in text the run inserted),
// with the class and function around it; a key written twice, or already used in the repository,
// is qualified — by class, then by module path, then by order in its file — never by line
// number, so a key stays put when code moves within its file.
import type { TSESTree } from '@typescript-eslint/utils';
import { jobName } from '../../rules/rewrites/job-name.js';
import { GUARDS, RUNTIME_MODULE } from '../../src/knowledge/guards.js';
import type { TextEdit } from './transform.js';
import { partitionPoint } from '../../analysis/source/partition-point.js';

/** The guards whose first argument is a lease key (`claimPeriod`, `claimOnce`, `runExclusive`, `runOnce`). */
export const KEYED_GUARDS: readonly string[] = GUARDS.filter((g) => g.module === RUNTIME_MODULE && g.kind !== 'per-replica').map(
  (g) => g.path[g.path.length - 1]!,
);

/** A key a transform wrote into one file. */
export interface WrittenKey {
  key: string;
  /** Range of the string literal (quotes included) in the file's final text. */
  start: number;
  end: number;
  /** The class and function around the guard, kebab-case, when there are any. */
  className?: string;
  functionName?: string;
}

/** Where each edit's text lands in the output of `applyEdits(text, edits)`. */
export function insertedSpans(edits: readonly TextEdit[]): Array<{ start: number; end: number }> {
  const ordered = edits
    .map((edit, index) => ({ edit, index }))
    .sort((a, b) => a.edit.start - b.edit.start || a.edit.end - b.edit.end || a.index - b.index);
  const spans: Array<{ start: number; end: number }> = [];
  let shift = 0;
  for (const { edit } of ordered) {
    const start = edit.start + shift;
    spans.push({ start, end: start + edit.text.length });
    shift += edit.text.length - (edit.end - edit.start);
  }
  return spans;
}

function calleeName(callee: TSESTree.Node): string | undefined {
  if (callee.type === 'Identifier') return callee.name;
  if (callee.type === 'MemberExpression' && !callee.computed && callee.property.type === 'Identifier') return callee.property.name;
  return undefined;
}

function functionNameOf(fn: TSESTree.Node): string | undefined {
  if ((fn.type === 'FunctionDeclaration' || fn.type === 'FunctionExpression') && fn.id) return fn.id.name;
  const parent = fn.parent;
  if (!parent) return undefined;
  if ((parent.type === 'MethodDefinition' || parent.type === 'Property' || parent.type === 'PropertyDefinition') && !parent.computed) {
    return parent.key.type === 'Identifier' || parent.key.type === 'PrivateIdentifier' ? parent.key.name : undefined;
  }
  if (parent.type === 'VariableDeclarator' && parent.id.type === 'Identifier') return parent.id.name;
  return undefined;
}

/** The names around `node`: the nearest named function and the class holding it. */
function contextOf(node: TSESTree.Node): { className?: string; functionName?: string } {
  let functionName: string | undefined;
  for (let current = node.parent; current; current = current.parent) {
    const isFunction =
      current.type === 'FunctionDeclaration' || current.type === 'FunctionExpression' || current.type === 'ArrowFunctionExpression';
    if (isFunction && functionName === undefined) functionName = functionNameOf(current);
    if ((current.type === 'ClassDeclaration' || current.type === 'ClassExpression') && current.id) {
      return { className: jobName(current.id.name), ...(functionName ? { functionName: jobName(functionName) } : {}) };
    }
  }
  return functionName ? { functionName: jobName(functionName) } : {};
}

/**
 * The keys in `program` (parsed from a rewritten text) that lie inside `spans` — text the run
 * inserted — with their ranges mapped by `toFinal` into the file's final text.
 */
export function writtenKeys(
  program: TSESTree.Program,
  spans: ReadonlyArray<{ start: number; end: number }>,
  toFinal: (offset: number) => number,
): WrittenKey[] {
  const found: WrittenKey[] = [];
  // Spans come in text order: the last one starting at or before the node is the only candidate.
  const inserted = (node: TSESTree.Node): boolean => {
    const span = spans[Math.max(0, partitionPoint(spans, (each) => each.start <= node.range[0]) - 1)];
    return span !== undefined && node.range[0] >= span.start && node.range[1] <= span.end;
  };
  // Whether some span starts before the node's end and ends after its start: a subtree that holds
  // no inserted text is not walked (on a big file most of the tree).
  const reaches = (node: TSESTree.Node): boolean => {
    const span = spans[partitionPoint(spans, (each) => each.end <= node.range[0])];
    return span !== undefined && span.start < node.range[1];
  };
  const visit = (node: TSESTree.Node): void => {
    if (!reaches(node)) return;
    if (node.type === 'CallExpression') {
      const name = calleeName(node.callee);
      const first = node.arguments[0];
      if (name && KEYED_GUARDS.includes(name) && first?.type === 'Literal' && typeof first.value === 'string' && inserted(first)) {
        found.push({
          key: first.value,
          start: toFinal(first.range[0]),
          end: toFinal(first.range[0]) + (first.range[1] - first.range[0]),
          ...contextOf(node),
        });
      }
    }
    for (const key of Object.keys(node) as Array<keyof typeof node>) {
      if (key === 'parent') continue;
      const value = node[key] as unknown;
      for (const child of Array.isArray(value) ? value : [value]) {
        if (child && typeof child === 'object' && typeof (child as { type?: unknown }).type === 'string') visit(child as TSESTree.Node);
      }
    }
  };
  // Cheap exit: most files the run changed have one or two guards.
  if (spans.length > 0) visit(program);
  return found;
}

const EXISTING_KEY = new RegExp(String.raw`\b(?:${KEYED_GUARDS.join('|')})\s*\(\s*(['"\x60])((?:(?!\1)[^\\\n]|\\.)*)\1`, 'g');

/** The literal keys a text already passes to a lease-taking guard (`claimPeriod('svc:job', …)`). */
export function existingKeys(text: string): string[] {
  if (!KEYED_GUARDS.some((g) => text.includes(g))) return [];
  return [...text.matchAll(EXISTING_KEY)].map((m) => m[2]!).filter((key) => !key.includes('${'));
}

/** `src/jobs/cleanup.ts` → `src/jobs/cleanup`: the module part of a qualified key. */
function modulePart(relativePath: string): string {
  return relativePath
    .replace(/\\/g, '/')
    .replace(/\.[cm]?[jt]sx?$/, '')
    .split('/')
    .map((segment) => jobName(segment) ?? segment)
    .join('/');
}

export interface KeyInFile extends WrittenKey {
  /** The file, relative to the run's root. */
  file: string;
}

/**
 * The key each written key becomes: unchanged when no other job of the run and no existing key
 * uses it; else qualified until it is unique.
 */
export function uniqueKeys(written: readonly KeyInFile[], existing: ReadonlySet<string>): string[] {
  const result = written.map((w) => w.key);
  // How many of `result` hold each key, kept as keys change: asking "does another job use it?" by
  // scanning every key made a file with thousands of guards quadratic.
  const holders = new Map<string, number>();
  const hold = (key: string, by: number): void => {
    const left = (holders.get(key) ?? 0) + by;
    if (left === 0) holders.delete(key);
    else holders.set(key, left);
  };
  for (const key of result) hold(key, 1);
  const assign = (i: number, key: string): void => {
    hold(result[i]!, -1);
    result[i] = key;
    hold(key, 1);
  };
  const split = (key: string): { service: string; job: string } => {
    const colon = key.indexOf(':');
    return colon === -1 ? { service: '', job: key } : { service: key.slice(0, colon + 1), job: key.slice(colon + 1) };
  };
  const taken = (key: string, self: number): boolean => existing.has(key) || (holders.get(key) ?? 0) > (result[self] === key ? 1 : 0);
  const qualifiers: Array<(w: KeyInFile, job: string) => string | undefined> = [
    (w, job) => (w.className ? `${w.className}.${w.functionName && w.functionName !== job ? `${w.functionName}.` : ''}${job}` : undefined),
    (w, job) => `${modulePart(w.file)}:${job}`,
  ];
  for (const qualify of qualifiers) {
    const clashing = result.map((key, i) => (taken(key, i) ? i : -1)).filter((i) => i >= 0);
    for (const i of clashing) {
      const { service, job } = split(written[i]!.key);
      const qualified = qualify(written[i]!, job);
      if (qualified !== undefined) assign(i, `${service}${qualified}`);
    }
  }
  // Still the same (two anonymous jobs in one file): number them in file order.
  const seen = new Map<string, number>();
  for (let i = 0; i < result.length; i += 1) {
    const key = result[i]!;
    if (!taken(key, i) && !seen.has(key)) continue;
    let n = (seen.get(key) ?? (existing.has(key) ? 1 : 0)) + 1;
    while (n > 1 && taken(`${key}-${n}`, i)) n += 1;
    seen.set(key, n);
    if (n > 1) assign(i, `${key}-${n}`);
  }
  return result;
}
