// no-unguarded-schedule on work named for a sweep, and on names led by `run`, `perform` or
// `execute`: `runStaleSweep(repo)`, `sweepExpiredSessions()` and `runCleanup()` name the verb after
// the prefix (and an age), so an imported one is a shared write; a collection's own one-word
// `sweep(…)` (`this.cache.sweep(filter)`) keeps this process's memory, and a run of something that
// writes nothing by name (`runHealthCheck()`) stays quiet.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');
const timer = (imported: string, call: string) =>
  lines(
    `import { ${imported} } from './maintenance';`,
    "import type { AgentRepository } from './agents';",
    'export function startTimers(agents: AgentRepository): void {',
    '  setInterval(async () => {',
    `    await ${call};`,
    '  }, 86_400_000);',
    '}',
  );
const reported = { messageId: 'unguardedSchedule' as const, line: 4, column: 15 };

ruleTester.run('no-unguarded-schedule: sweeps and run-prefixed names', noUnguardedSchedule, {
  valid: [
    timer('runHealthCheck', 'runHealthCheck(agents)'),
    timer('runReport', 'runReport()'),
    lines(
      "import { Collection } from 'discord.js';",
      'export class Entries {',
      '  #cache = new Collection<number, { expired: boolean }>();',
      '  #timer: NodeJS.Timeout | null = null;',
      '  watch(): void {',
      '    this.#timer ??= setInterval(() => this.#cache.sweep((entry) => entry.expired), 30_000);',
      '  }',
      '}',
    ),
  ],
  invalid: [
    { code: timer('runStaleSweep', 'runStaleSweep(agents)'), errors: [reported] },
    { code: timer('sweepExpiredSessions', 'sweepExpiredSessions(agents)'), errors: [reported] },
    { code: timer('runCleanup', 'runCleanup(agents)'), errors: [reported] },
    { code: timer('performSync', 'performSync(agents)'), errors: [reported] },
  ],
});
