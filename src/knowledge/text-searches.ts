// String and RegExp methods that look for the text they are handed in another text
// (`output.includes('pg_advisory_lock')`): the text searched for is a pattern, not code that runs.
// Plain data.

/** Methods of a string that search it for their first argument. */
export const TEXT_SEARCH_METHODS: ReadonlySet<string> = new Set([
  'includes',
  'indexOf',
  'lastIndexOf',
  'startsWith',
  'endsWith',
  'match',
  'matchAll',
  'search',
  'split',
  'replace',
  'replaceAll',
]);

/** Comparisons of two values: a literal compared with a text is looked for in it, not sent. */
export const TEXT_COMPARISONS: ReadonlySet<string> = new Set(['===', '!==', '==', '!=']);
