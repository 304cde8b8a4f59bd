// The run-wide pass over the lease keys the per-file phase wrote: each becomes unique across the
// run and against the keys the repository already uses, and is rewritten in place where it changes.
import { readFileSync } from 'node:fs';
import { discoverFiles } from './discover-files.js';
import { existingKeys, uniqueKeys, type KeyInFile, type WrittenKey } from './lease-keys.js';
import type { RunState } from './project-steps.js';
import { applyEdits, lineAt } from './text-edits.js';

/** Makes the written keys unique in `state.current`; answers every key written, file and line. */
export function makeKeysUnique(
  keysIn: ReadonlyMap<string, readonly WrittenKey[]>,
  state: Pick<RunState, 'originals' | 'current'>,
  display: (path: string) => string,
  /** Keys used in the repository outside the files this run read. */
  elsewhere: ReadonlySet<string> = new Set(),
): Array<{ key: string; file: string; line: number }> {
  const written: Array<KeyInFile & { path: string }> = [];
  for (const [path, keys] of keysIn) for (const key of keys) written.push({ ...key, path, file: display(path) });
  if (written.length === 0) return [];
  const existing = new Set<string>(elsewhere);
  for (const text of state.originals.values()) for (const key of existingKeys(text)) existing.add(key);
  const unique = uniqueKeys(written, existing);
  const list: Array<{ key: string; file: string; line: number }> = [];
  const indexOf = new Map<string, number>();
  written.forEach((w, i) => indexOf.has(`${w.start}|${w.path}`) || indexOf.set(`${w.start}|${w.path}`, i));
  for (const [path, keys] of keysIn) {
    const text = state.current.get(path);
    if (text === undefined) continue;
    const edits = [];
    for (const key of keys) {
      const i = indexOf.get(`${key.start}|${path}`);
      const next = (i === undefined ? undefined : unique[i]) ?? key.key;
      if (next !== key.key) {
        const quote = text[key.start]!;
        edits.push({ start: key.start, end: key.end, text: `${quote}${next}${quote}` });
      }
      list.push({ key: next, file: display(path), line: lineAt(text, key.start) });
    }
    if (edits.length > 0) state.current.set(path, applyEdits(text, edits));
  }
  return list;
}

/**
 * The keys the rest of the repository (the source files under `root` this run did not read)
 * already uses: a run over `src/jobs` must not take a key `src/billing` holds.
 */
export async function keysElsewhere(root: string, read: ReadonlySet<string>): Promise<Set<string>> {
  const keys = new Set<string>();
  const { files } = await discoverFiles(['.'], root);
  for (const path of files) {
    if (read.has(path)) continue;
    try {
      for (const key of existingKeys(readFileSync(path, 'utf8'))) keys.add(key);
    } catch {
      // unreadable: it holds no key this run can see
    }
  }
  return keys;
}
