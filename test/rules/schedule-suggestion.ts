// What the no-unguarded-schedule tests expect of its one suggestion: the claimPeriod import and
// the guard statement inserted into the code as written.
export const lines = (...l: string[]) => l.join('\n');
const IMPORT = "import { claimPeriod } from 'replica-guard';";

/** The `require` a CommonJS file gets instead of the import. */
export const REQUIRE = "const { claimPeriod } = require('replica-guard');";

/** The one suggestion: the import after line `importAfter` (0-based, -1 for the top), `guard` inserted as line `at`. */
export const suggested = (code: string[], importAfter: number, at: number, guard: string, importLine = IMPORT) => {
  const out = [...code];
  out.splice(at, 0, guard);
  out.splice(importAfter + 1, 0, importLine);
  return [{ messageId: 'addClaimPeriod' as const, output: lines(...out) }];
};
