// A value computed once per linted file and shared by the rules that ask for it. ESLint runs
// every rule's `create` for one file before it starts the next, so one slot (the last file's
// SourceCode) hits as often as a map would; a WeakMap keyed by each file's SourceCode costs more
// per file (an ephemeron entry the garbage collector must visit) than the lookups it saves.
// A file is told by its SourceCode *and* that SourceCode's `ast`: ESLint makes a new SourceCode
// per lint, while oxlint's JS plugins keep one SourceCode object for the whole process and swap
// its `text` and `ast` per file — only the Program node is new for every file in both.

// What each slot forgets on `forgetLastFile`. A slot holds its file's tree until the next file
// comes; a caller that is done with a file (the codemod, between its detections of one big file)
// drops them all, so a tree never lives on beside the next parse.
const forgetters = new Set<() => void>();

/** Registers what a per-file slot of this kind (one module-level `last…` variable) does to forget its file. */
export function onForgetLastFile(forget: () => void): void {
  forgetters.add(forget);
}

/** Empties every per-file slot: the next question about any file computes afresh. */
export function forgetLastFile(): void {
  for (const forget of forgetters) forget();
}

/** `compute`, remembered for the last `key` it was called with (compared by identity, and by its `ast` when it has one). */
export function lastFileCache<Key extends object, Value>(compute: (key: Key) => Value): (key: Key) => Value {
  let lastKey: Key | undefined;
  let lastAst: unknown;
  let lastValue: Value | undefined;
  onForgetLastFile(() => {
    lastKey = undefined;
    lastAst = undefined;
    lastValue = undefined;
  });
  return (key) => {
    const ast = (key as { ast?: unknown }).ast;
    if (key !== lastKey || ast !== lastAst) {
      lastValue = compute(key);
      lastKey = key;
      lastAst = ast;
    }
    return lastValue as Value;
  };
}

/**
 * A map that lives as long as one linted file: `mapFor(sourceCode)` is the same Map until another
 * file's SourceCode is passed. For caches keyed by AST nodes, which a WeakMap would hold as
 * ephemerons that every garbage collection must visit.
 */
export function perFileMap<Key, Value>(): (sourceCode: object) => Map<Key, Value> {
  return lastFileCache(() => new Map<Key, Value>());
}
