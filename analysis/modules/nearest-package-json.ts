// The nearest package.json above a directory, looked up once per directory: a lint goes folder by
// folder, and every directory walked through on the way up gets the same answer. At most
// MAX_LEVELS levels up (a file deeper than that below its package has none); never throws.
import { statSync } from 'node:fs';
import { dirname, join } from 'node:path';

const MAX_LEVELS = 8;
/** The nearest package.json of each directory asked about. */
const nearest = new Map<string, string | undefined>();

/** The path of the nearest package.json at or above `directory` (absolute), or undefined. */
export function nearestPackageJson(directory: string): string | undefined {
  // One lookup for a directory seen before (every file after the first of its directory).
  const known = nearest.get(directory);
  if (known !== undefined || nearest.has(directory)) return known;
  let found: string | undefined;
  let current = directory;
  // The directories walked through have the same answer: a sibling folder's files stop there.
  const walked: string[] = [];
  let settled = false;
  for (let level = 0; level < MAX_LEVELS; level++) {
    if (nearest.has(current)) {
      found = nearest.get(current);
      settled = true;
      break;
    }
    walked.push(current);
    const candidate = join(current, 'package.json');
    try {
      if (statSync(candidate, { throwIfNoEntry: false })?.isFile()) {
        found = candidate;
        settled = true;
        break;
      }
    } catch {
      // Not here: one level up.
    }
    const parent = dirname(current);
    settled = parent === current;
    if (settled) break;
    current = parent;
  }
  // Past MAX_LEVELS the walk gave up: only the first directory has that answer.
  for (const walkedDirectory of settled ? walked : walked.slice(0, 1)) nearest.set(walkedDirectory, found);
  return found;
}
