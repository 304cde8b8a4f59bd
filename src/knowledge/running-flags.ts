// Flags a row carries to say a run on it is under way (`isRunning`, `syncRunning`, `processing`,
// `import_in_progress`), and the values that mark it started (`true`, `'processing'`,
// `Status.RUNNING`): a flag checked, then set in a second statement, is a claim that is not atomic
// (require-atomic-claim's flag claims).

const RUNNING_FLAG = /^(?:is_?)?(?:[a-z0-9_]*_)?(?:running|processing|syncing|executing|importing|exporting|in_progress|busy)$/i;

/** Whether a column or field name is a running flag (camelCase read as snake_case). */
export function isRunningFlag(name: string): boolean {
  return RUNNING_FLAG.test(name.replace(/([a-z0-9])([A-Z])/g, '$1_$2'));
}

/** A state value that says a run is under way. */
export const IN_PROGRESS_VALUE = /^(?:running|processing|in_?progress|syncing|executing|importing|exporting|started|busy)$/i;
