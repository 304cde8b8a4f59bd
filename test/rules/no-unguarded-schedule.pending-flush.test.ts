// no-unguarded-schedule on a self-rescheduling timer that flushes one pending change: the method
// that arms it marks the change, the work leaves when nothing is pending and clears the mark once it
// has written it. It runs per change, on the replica where the change was made: quiet. A tick whose
// flag only `stop()` clears is a schedule, and is reported.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { lines } from './schedule-suggestion.js';

const settings = { 'replica-guard': { service: 'notes' } };

/** A debounced writer: `scheduleUpdate()` arms the timer, `triggerUpdate()` runs the writer it was given and clears `this.dirty` (when `clears`). */
const writer = (clears: boolean) => [
  'export class DebouncedSave {',
  '  private dirty = false;',
  '  private last = 0;',
  '  private readonly write: () => void;',
  '  private readonly waitMs: number;',
  '  constructor(write: () => void, waitMs = 1_000) {',
  '    this.write = write;',
  '    this.waitMs = waitMs;',
  '  }',
  '  scheduleUpdate(): void {',
  '    this.dirty = true;',
  '    setTimeout(() => this.triggerUpdate());',
  '  }',
  '  triggerUpdate(): void {',
  '    if (!this.dirty) return;',
  '    if (Date.now() - this.last > this.waitMs) {',
  '      this.write();',
  '      this.last = Date.now();',
  ...(clears ? ['      this.dirty = false;'] : []),
  '    } else {',
  '      this.scheduleUpdate();',
  '    }',
  '  }',
  '}',
];

/** A poller: `start()` raises `this.running`, `tick()` reschedules itself; only `stop()` lowers it. */
const POLLER = [
  "import { db } from './db';",
  'export class Expirer {',
  '  private running = false;',
  '  start(): void {',
  '    this.running = true;',
  '    setTimeout(() => void this.tick(), 0);',
  '  }',
  '  stop(): void {',
  '    this.running = false;',
  '  }',
  '  async tick(): Promise<void> {',
  '    if (!this.running) return;',
  "    await db.query('UPDATE orders SET state = $1 WHERE expires_at < now()', ['expired']);",
  '    this.start();',
  '  }',
  '}',
];

ruleTester.run('no-unguarded-schedule: the flush of one pending change', noUnguardedSchedule, {
  valid: [{ settings, code: lines(...writer(true)) }],
  invalid: [
    // the mark is never cleared by the work: it keeps writing every second
    { settings, code: lines(...writer(false)), errors: [{ messageId: 'unguardedSchedule', line: 12, column: 16, suggestions: null }] },
    { settings, code: lines(...POLLER), errors: [{ messageId: 'unguardedSchedule', line: 6, column: 16, suggestions: null }] },
  ],
});
