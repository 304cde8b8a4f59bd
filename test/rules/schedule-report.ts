// The report no-unguarded-schedule makes with its suggestion, built from the test's code: the
// guard inserted as a line of the work, the replica-guard import as a line of the file.

const IMPORT = "import { claimPeriod } from 'replica-guard';";

export interface GuardedReport {
  /** The line and column of the finding. */
  line: number;
  column: number;
  /** The guard statement as a whole line (indented), and the line it goes after (1-based). */
  guard: string;
  after: number;
  /** The line the import goes after (0: first). */
  importAfter: number;
  messageId?: 'unguardedSchedule' | 'deploymentFlagGate';
}

/** An invalid case: `code` reported once, its one suggestion inserting the guard and the import. */
export function guardedReport(settings: Record<string, unknown>, code: string, report: GuardedReport) {
  const out = code.split('\n');
  out.splice(report.after, 0, report.guard);
  out.splice(report.importAfter, 0, IMPORT);
  return {
    settings,
    code,
    errors: [
      {
        messageId: report.messageId ?? ('unguardedSchedule' as const),
        line: report.line,
        column: report.column,
        suggestions: [{ messageId: 'addClaimPeriod' as const, output: out.join('\n') }],
      },
    ],
  };
}
