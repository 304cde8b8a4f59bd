// The reports require-atomic-claim makes, placed where a test's code names the read.

/** A report of `messageId` with `data` on the first `needle` in `code` (the read's method name or SELECT keyword). */
export function reportAt<M extends string>(code: string, needle: string, messageId: M, data: Record<string, string>) {
  const at = code.indexOf(needle);
  if (at === -1) throw new Error(`${needle} not in test code`);
  const before = code.slice(0, at);
  return { code, errors: [{ messageId, data, line: before.split('\n').length, column: at - before.lastIndexOf('\n') }] };
}

/** The report on the read's method name or SELECT keyword: the first `needle` in `code`. */
export function claim(code: string, needle: string, column = 'status') {
  return reportAt(code, needle, 'nonAtomicClaim' as const, { column });
}
