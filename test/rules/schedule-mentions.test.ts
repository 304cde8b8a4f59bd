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
