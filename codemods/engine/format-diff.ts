// Unified diffs of a run's changes, for `--dry-run`, in the `--- a/… +++ b/…` form of `git diff`.
import { createTwoFilesPatch } from 'diff';
import type { FileChange } from './engine.js';

export function formatDiff(changes: readonly FileChange[]): string {
  return changes
    .map((c) =>
      createTwoFilesPatch(`a/${c.file}`, `b/${c.file}`, c.before, c.after, undefined, undefined, { context: 3 })
        .split('\n')
        .filter((line) => !/^=+$/.test(line))
        .join('\n'),
    )
    .join('');
}
