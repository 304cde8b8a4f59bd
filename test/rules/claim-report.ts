// The reports require-atomic-claim makes, placed where a test's code names the read — and, when the
// rows are marked in the read's own function, spanning to the end of that mark (mark-span.ts).

/** Line and column (1-based) of the first `needle` in `code` at or after `from`. */
function place(code: string, needle: string, from = 0): { line: number; column: number } {
  const at = code.indexOf(needle, from);
  if (at === -1) throw new Error(`${needle} not in test code`);
  const before = code.slice(0, at);
  return { line: before.split('\n').length, column: at - before.lastIndexOf('\n') };
}

/**
 * A report of `messageId` with `data` on the first `needle` in `code` (the read's method name or
 * SELECT keyword); with `mark` (the start of the write that marks the rows, the first after the
 * read), the report spans to that write and its message names the write's line.
 */
export function reportAt<M extends string>(code: string, needle: string, messageId: M, data: Record<string, string>, mark?: string) {
  const start = place(code, needle);
  if (messageId !== 'nonAtomicClaim') return { code, errors: [{ messageId, data, ...start }] };
  if (mark === undefined) return { code, errors: [{ messageId, data: { ...data, markedAt: '' }, ...start }] };
  const markedAt = ` (at line ${place(code, mark, code.indexOf(needle)).line}, where this report ends)`;
  return { code, errors: [{ messageId, data: { ...data, markedAt }, ...start }] };
}

/** The report on the read's method name or SELECT keyword: the first `needle` in `code`; `mark`: see `reportAt`. */
export function claim(code: string, needle: string, column = 'status', mark?: string) {
  return reportAt(code, needle, 'nonAtomicClaim' as const, { column }, mark);
}
