// no-unguarded-schedule on a one-word `delete` / `remove` whose receiver names no client: a `Map`'s
// answers at once, so an awaited one (`await this.traces.delete(id)`) is a store's, sent out of the
// process, and every replica sends it. Not awaited, it stays a `Map`'s; an awaited `set` stays
// unknown (an in-memory cache's promise API looks the same), and so does an imported name's.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');
const traces = (statement: string, guarded = false) =>
  lines(
    "import type { Storable } from './store';",
    ...(guarded ? ["import { claimPeriod } from 'replica-guard';"] : []),
    'export class Traces {',
    '  constructor(private traces: Storable, private stale: string[]) {',
    '    setInterval(async () => {',
    ...(guarded ? ["      if (!(await claimPeriod('replica-guard:traces-4', 86_400_000))) return;"] : []),
    `      for (const id of this.stale) ${statement};`,
    '    }, 86_400_000);',
    '  }',
    '}',
  );
const reported = (statement: string) => ({
  code: traces(statement),
  filename: 'src/traces.ts',
  errors: [
    {
      messageId: 'unguardedSchedule' as const,
      line: 4,
      column: 17,
      suggestions: [{ messageId: 'addClaimPeriod' as const, output: traces(statement, true) }],
    },
  ],
});

ruleTester.run('no-unguarded-schedule: awaited deletes', noUnguardedSchedule, {
  valid: [
    traces('this.traces.delete(id)'),
    traces('await this.traces.set(id, null)'),
    lines("import { registry } from './registry';", 'setInterval(async () => {', "  await registry.delete('handshake');", '}, 30_000);'),
  ],
  invalid: [reported('await this.traces.delete(id)'), reported('await this.traces.remove(id)')],
});
