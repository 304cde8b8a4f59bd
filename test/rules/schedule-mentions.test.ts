// The schedule rule's (and the guard-schedules codemod's) text pre-check on poll loops: a file
// whose endless loop pauses on an imported `sleep`/`delay` names no timer and no scheduler, and
// must still be admitted; an endless loop with no awaited pause, or a pause outside such a loop,
// is not a poll loop's text.
import { describe, expect, it } from 'vitest';
import { mentionsPollLoop, mentionsSchedule } from '../../rules/no-unguarded-schedule/schedule-mentions.js';

const lines = (...l: string[]): string => l.join('\n');

describe('mentionsSchedule: poll loops', () => {
  it('admits an endless loop paused by an imported delay', () => {
    const text = lines("import { delay } from './time';", 'for (;;) {', '  await job();', '  await delay(1000);', '}');
    expect(mentionsPollLoop(text)).toBe(true);
    expect(mentionsSchedule(text)).toBe(true);
  });

  it('admits `while (!this.stopped)` paused through a member (`await utils.sleep(ms)`)', () => {
    const text = lines('while (!this.stopped) {', '  await this.tick();', '  await utils.sleep(500);', '}');
    expect(mentionsSchedule(text)).toBe(true);
  });

  it('turns away an endless loop with no awaited pause (a parser loop)', () => {
    const text = lines('while (true) {', '  const token = next();', '  if (!token) break;', '}');
    expect(mentionsPollLoop(text)).toBe(false);
    expect(mentionsSchedule(text)).toBe(false);
  });

  it('turns away a pause outside an endless loop (a retry with a bound)', () => {
    const text = lines('for (let i = 0; i < 3; i++) {', '  await delay(100);', '}');
    expect(mentionsSchedule(text)).toBe(false);
  });
});

// The first test looks for short stems (`Interv`, `Timeou`, `-async`) and compares a scheduler module's name only
// where its stem stands: every text the whole names admit must still be admitted.
describe('mentionsSchedule: stems and quoted module names', () => {
  it.each([
    ["import cron from 'node-cron';", true],
    ['const { CronJob } = require("cron");', true],
    ["import { Cron } from 'croner';", true],
    ["import { setIntervalAsync } from 'set-interval-async/fixed';", true],
    ["import { ToadScheduler } from 'toad-scheduler';", true],
    ['// cron: node-cron, croner\nimport x from `@elysiajs/cron`;', true],
    ["// a cron job\nimport x from './crontab';", false],
    ["import { asyncScheduler } from 'rxjs'; // the scheduler of node-schedule", false],
    ["import x from 'node-cron-parser';", false],
    ["import x from 'set-interval-async-extra';", false],
  ])('%s → %s', (text, admitted) => {
    expect(mentionsSchedule(text)).toBe(admitted);
  });

  it('admits a quoted name after the same stem stood unquoted earlier in the text', () => {
    expect(mentionsSchedule("const cron = 1; // cron cron\nconst job = require('cron');")).toBe(true);
    expect(mentionsSchedule('const s = \'scheduler\'; import { x } from "@nestjs/schedule";')).toBe(true);
  });

  it('admits a schedule decorator whatever stem its name holds, and nothing for an `@` alone', () => {
    expect(mentionsSchedule('class A {\n  @EveryInterval(1000)\n  tick() {}\n}')).toBe(true);
    expect(mentionsSchedule('class A {\n  @NightlyCron()\n  tick() {}\n}')).toBe(true);
    expect(mentionsSchedule('class A {\n  @Schedule ("0 * * * *")\n  tick() {}\n}')).toBe(true);
    expect(mentionsSchedule('/** @param cron the expression */\nfunction f(cron) {}')).toBe(false);
    expect(mentionsSchedule('strapi.cron.add({ job: { task() {}, options: "* * * * *" } });')).toBe(true);
  });

  it('admits a timer global only by its whole name', () => {
    expect(mentionsSchedule('setInterval(tick, 1000);')).toBe(true);
    expect(mentionsSchedule('const t = globalThis.setTimeout;')).toBe(true);
    expect(mentionsSchedule('const Interval = 5; const Timeout = 3;')).toBe(false);
  });
});

describe('mentionsSchedule: jobs built from a project class named for its cron', () => {
  it('admits `new NightlyCronJob(…)` in a file that says cron (its import path)', () => {
    const text = lines("import { NightlyCronJob } from '../support/nightly-cron-job';", "new NightlyCronJob('0 3 * * *', 'purge', run);");
    expect(mentionsSchedule(text)).toBe(true);
  });

  it('turns away a `new` of a class not named for a cron, and a cron-named class in a file that never says cron', () => {
    expect(mentionsSchedule(lines("import { Report } from './cron-report';", 'new Report(rows);'))).toBe(false);
    expect(mentionsSchedule(lines("import { NightlyCronJob } from './jobs';", 'new NightlyCronJob(expr, run);'))).toBe(false);
  });
});
