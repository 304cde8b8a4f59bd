// no-unguarded-schedule on a one-shot at start-up (`@Timeout`) whose work reads the stored servers
// and builds one `new CronJob(…)` per server, through a method of its class: the jobs it builds
// are judged where they are built (reported there when their work writes shared rows); the
// one-shot that arms them is quiet. Its twin that also writes a row itself is reported.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { lines, suggested } from './schedule-suggestion.js';
const settings = { 'replica-guard': { service: 'probe' } };

/** A NestJS service arming a per-minute probe per active server at start; `boot` is more of the one-shot's statements. */
const service = (...boot: string[]) =>
  lines(
    "import { Injectable } from '@nestjs/common';",
    "import { Timeout, SchedulerRegistry } from '@nestjs/schedule';",
    "import { CronJob } from 'cron';",
    "import { ServerRepository } from './server.repository';",
    '@Injectable()',
    'export class ProbeService {',
    '  constructor(private readonly registry: SchedulerRegistry, private readonly servers: ServerRepository) {}',
    '  private armProbe(id: number): void {',
    "    const job = new CronJob('* * * * *', () => this.probe(id));",
    '    this.registry.addCronJob(`probe-${id}`, job);',
    '    job.start();',
    '  }',
    '  private async probe(id: number): Promise<void> {',
    '    await this.servers.update(id, { probedAt: new Date() });',
    '  }',
    '  @Timeout(1000)',
    '  async armAll(): Promise<void> {',
    '    const active = await this.servers.find({ where: { active: true } });',
    '    active.forEach((server) => this.armProbe(server.id));',
    ...boot.map((statement) => `    ${statement}`),
    '  }',
    '}',
  );

const SAVES = 'await this.servers.save({ id: 0, armedAt: new Date() });';
/** The one-shot's guard, put first in `armAll` (its import goes after the file's imports). */
const GUARD = "    if (!(await claimPeriod('probe:arm-all', 1000))) return;";

ruleTester.run('no-unguarded-schedule: a one-shot that arms schedules', noUnguardedSchedule, {
  valid: [
    // the probes only stamp this process's map: nothing reported, the one-shot included
    {
      settings,
      code: service().replace('() => this.probe(id)', '() => this.lastRun.set(id, Date.now())'),
    },
    // the method that builds each job named for scheduling: its body is read, not its name
    {
      settings,
      code: service().replace('() => this.probe(id)', '() => this.lastRun.set(id, Date.now())').replaceAll('armProbe', 'scheduleProbe'),
    },
  ],
  invalid: [
    // the per-server job writes a shared row: reported where it is built, not at the one-shot
    {
      settings,
      code: service(),
      errors: [{ messageId: 'unguardedSchedule', line: 9, column: 42 }],
    },
    // the one-shot also writes a row itself
    {
      settings,
      code: service(SAVES),
      errors: [
        { messageId: 'unguardedSchedule', line: 9, column: 42 },
        {
          messageId: 'unguardedSchedule',
          line: 16,
          column: 3,
          suggestions: suggested(service(SAVES).split('\n'), 3, 17, GUARD),
        },
      ],
    },
  ],
});
