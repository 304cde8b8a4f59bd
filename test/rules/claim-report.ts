// The one report require-atomic-claim makes, placed where a test's code names the read.

/** The report on the read's method name or SELECT keyword: the first `needle` in `code`. */
export function claim(code: string, needle: string, column = 'status') {
  const at = code.indexOf(needle);
  if (at === -1) throw new Error(`${needle} not in test code`);
  const before = code.slice(0, at);
  return {
    code,
    errors: [
      { messageId: 'nonAtomicClaim' as const, data: { column }, line: before.split('\n').length, column: at - before.lastIndexOf('\n') },
    ],
  };
}
