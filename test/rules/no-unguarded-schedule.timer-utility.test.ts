// no-unguarded-schedule on a timer utility: a class whose timer runs only the callback it was
// built with (a constructor parameter property, or a parameter the constructor assigns to a
// field) is a tool, like a wrapper forwarding a parameter — quiet, also under `reportAll`, even
// when its name makes it a job runner. The work is what the code that builds it hands in. Its
// twins are reported: the timer runs a method of the class, or a method of an injected client.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { guardedReport } from './schedule-report.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'ops' } };

/** A `RetryScheduler` whose constructor takes `params` and whose `start()` sets `setInterval(work, this.ms)`; `extra` members follow. */
const scheduler = (params: string, work: string, ...extra: string[]) =>
  lines(
    'export class RetryScheduler {',
    `  constructor(${params}, private readonly ms: number) {}`,
    '  start() {',
    `    setInterval(${work}, this.ms);`,
    '  }',
    ...extra,
    '}',
  );

ruleTester.run('no-unguarded-schedule: a timer utility running the callback it was built with', noUnguardedSchedule, {
  valid: [
    // the callback is a constructor parameter property
    { settings, code: scheduler('private readonly cb: () => Promise<void>', '() => void this.cb()') },
    { settings, code: scheduler('private readonly cb: () => Promise<void>', 'async () => { await this.cb(); }') },
    // handed over as it is, or bound
    { settings, code: scheduler('private readonly cb: () => Promise<void>', 'this.cb.bind(this)') },
    // plain JavaScript: the constructor assigns its parameter to the field
    {
      settings,
      code: lines(
        'class JobScheduler {',
        '  constructor(run, ms) {',
        '    this.run = run;',
        '    this.ms = ms;',
        '  }',
        '  start() {',
        '    this.timer = setInterval(this.run, this.ms);',
        '  }',
        '}',
        'module.exports = JobScheduler;',
      ),
    },
    // a debounce-like timer, audited with reportAll
    {
      settings,
      options: [{ reportAll: true }],
      code: lines(
        'export class SoonestTimer {',
        '  private handle?: NodeJS.Timeout;',
        '  constructor(private readonly cb: () => void) {}',
        '  schedule(ms: number) {',
        '    clearTimeout(this.handle);',
        '    this.handle = setTimeout(() => this.cb(), ms);',
        '  }',
        '}',
      ),
    },
  ],
  invalid: [
    // the timer runs a method of the class: its own work
    guardedReport(
      settings,
      scheduler('private readonly db: Db', '() => void this.cb()', '  async cb() {', '    await this.db.sweepExpired();', '  }'),
      { line: 4, column: 17, guard: "    if (!(await claimPeriod('ops:cb', this.ms))) return;", after: 6, importAfter: 0 },
    ),
    // the timer runs a method of an injected client, not a callback
    {
      settings,
      code: scheduler('private readonly db: Db', '() => void this.db.sweepExpired()'),
      errors: [
        {
          messageId: 'unguardedSchedule' as const,
          line: 4,
          column: 17,
          suggestions: [
            {
              messageId: 'addClaimPeriod' as const,
              output: scheduler(
                'private readonly db: Db',
                lines(
                  'async () => {',
                  "      if (!(await claimPeriod('ops:file-4', this.ms))) return;",
                  '      return void this.db.sweepExpired();',
                  '    }',
                ),
              ).replace(/^/, "import { claimPeriod } from 'replica-guard';\n"),
            },
          ],
        },
      ],
    },
  ],
});

/**
 * A `PollScheduler` built with an options object: `assign` stores the callback, `body` is what its
 * `#tick` runs inside a running flag and a `try` whose `finally` arms the next timer.
 */
const optionsUtility = (params: string, assign: string, ...body: string[]) =>
  lines(
    'export class PollScheduler {',
    '  #running = false;',
    `  constructor(${params}) {`,
    `    ${assign}`,
    '    this.ms = 30_000;',
    '  }',
    '  start() {',
    '    this.#armNext();',
    '  }',
    '  #tick = async () => {',
    '    if (this.#running) return;',
    '    this.#running = true;',
    '    try {',
    ...body.map((b) => `      ${b}`),
    '    } catch (error) {',
    "      console.error('tick failed', error);",
    '    } finally {',
    '      this.#running = false;',
    '      this.#armNext();',
    '    }',
    '  };',
    '  #armNext() {',
    '    this.timer = setTimeout(this.#tick, this.ms);',
    '  }',
    '}',
  );
/** `optionsUtility(…)` reported at `this.#tick`, with no suggestion (the loop re-arms in `finally`, through a method). */
const optionsUtilityReported = (params: string, assign: string, ...body: string[]) => {
  const code = optionsUtility(params, assign, ...body);
  const at = code.split('\n').findIndex((l) => l.includes('setTimeout('));
  return {
    settings,
    code,
    errors: [
      { messageId: 'unguardedSchedule' as const, line: at + 1, column: code.split('\n')[at]!.indexOf('this.#tick') + 1, suggestions: [] },
    ],
  };
};

ruleTester.run('no-unguarded-schedule: a timer utility built with an options object', noUnguardedSchedule, {
  valid: [
    // the callback is a member of the options the constructor takes
    { settings, code: optionsUtility('opts', 'this.onTick = opts.onInterval;', 'await this.onTick();') },
    // destructured in the parameter list; an error handler handed in as well
    {
      settings,
      code: optionsUtility(
        '{ onInterval, onError }',
        'this.onTick = onInterval; this.onError = onError;',
        'await this.onTick();',
        'this.onError?.(null);',
      ),
    },
    // audited with reportAll: still the builder's work
    { settings, options: [{ reportAll: true }], code: optionsUtility('opts', 'this.onTick = opts.onInterval;', 'await this.onTick();') },
  ],
  invalid: [
    // the tick also does work of its own
    optionsUtilityReported('opts', 'this.onTick = opts.onInterval;', 'await this.onTick();', 'await this.db.purgeExpiredSessions();'),
    // the field holds work the class wrote itself, not what it was handed
    optionsUtilityReported('opts', 'this.onTick = () => purgeExpiredSessions(opts.db);', 'await this.onTick();'),
  ],
});
