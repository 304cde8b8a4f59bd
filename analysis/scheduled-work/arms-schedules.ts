// Work that sets up other schedules of this process: a one-shot at start-up (`@Timeout(1000)
// loadJobs()`) reading the stored jobs and building a `new CronJob(…)` for each, itself or through
// the methods of its class it calls. The schedules it builds are found and judged where they are
// built; the one-shot that arms them runs once per process start.
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { descendants } from '../sql/descendants.js';
import { ownMethodCalled, type FunctionLike } from './work-function.js';

const MAX_DEPTH = 3;

/** Whether running `fn` (and the methods of its class it calls, a few deep) reaches one of `schedules`. */
export function armsSchedules(sourceCode: SourceCode, fn: FunctionLike, schedules: readonly TSESTree.Node[]): boolean {
  if (schedules.length === 0) return false;
  const seen = new Set<FunctionLike>();
  const reaches = (current: FunctionLike, depth: number): boolean => {
    if (seen.has(current)) return false;
    seen.add(current);
    if (schedules.some((s) => s.range[0] >= current.range[0] && s.range[1] <= current.range[1])) return true;
    if (depth >= MAX_DEPTH) return false;
    for (const node of descendants(current.body, sourceCode.visitorKeys)) {
      const method = node.type === 'CallExpression' ? ownMethodCalled(node) : undefined;
      if (method && reaches(method, depth + 1)) return true;
    }
    return false;
  };
  return reaches(fn, 0);
}
