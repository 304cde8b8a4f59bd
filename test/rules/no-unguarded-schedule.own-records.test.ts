// no-unguarded-schedule on work that writes only what belongs to this replica: the row this process
// registered for itself (`this.worker.uuid`, its heartbeat) and the web stream it built for one
// response (`controller.enqueue(ping)` in `new ReadableStream({ start(controller) … })`), also from a timer
// that feeds that stream and writes on the way. Each stays quiet; its twin that updates every stale
// worker's row, or enqueues a job on a shared queue without feeding the stream, is reported.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { lines, suggested } from './schedule-suggestion.js';

const settings = { 'replica-guard': { service: 'lab' } };

/** A NestJS worker service whose every-minute `@Cron` method runs `body`. */
const workerService = (...body: string[]) => [
  "import { Injectable } from '@nestjs/common';",
  "import { Cron, CronExpression } from '@nestjs/schedule';",
  "import { LessThan, type Repository } from 'typeorm';",
  "import type { WorkerEntity } from './worker.entity';",
  '@Injectable()',
  'export class WorkerService {',
  '  private worker?: WorkerEntity;',
  '  constructor(private readonly workers: Repository<WorkerEntity>) {}',
  '  @Cron(CronExpression.EVERY_MINUTE)',
  '  async healthCheck(): Promise<void> {',
  ...body.map((statement) => `    ${statement}`),
  '  }',
  '}',
];
const ownHeartbeat = [
  'const row = await this.workers.findOneOrFail({ where: { uuid: this.worker!.uuid } });',
  'row.lastSeen = new Date();',
  'this.worker = await this.workers.save(row);',
];
const othersUnreachable = [
  'const stale = await this.workers.find({ where: { reachable: true, lastSeen: LessThan(new Date(Date.now() - 120_000)) } });',
  'for (const row of stale) {',
  '  row.reachable = false;',
  '  await this.workers.save(row);',
  '}',
];

/** A route answering with an event stream whose timer runs `statements`. */
const eventStream = (imports: string[], ...statements: string[]) => [
  ...imports,
  'export function GET(): Response {',
  '  const encoder = new TextEncoder();',
  '  let timer: ReturnType<typeof setInterval> | undefined;',
  '  const body = new ReadableStream<Uint8Array>({',
  '    start(controller) {',
  '      timer = setInterval(() => {',
  ...statements.map((statement) => `        ${statement}`),
  '      }, 15_000);',
  '    },',
  '    cancel() {',
  '      clearInterval(timer);',
  '    },',
  '  });',
  "  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });",
  '}',
];

const enqueueing = eventStream(["import { jobs } from './queue';"], "void jobs.enqueue({ kind: 'digest' });");

ruleTester.run('no-unguarded-schedule: what belongs to this replica', noUnguardedSchedule, {
  valid: [
    // the heartbeat of the row this process registered for itself
    { settings, code: lines(...workerService(...ownHeartbeat)) },
    // a keep-alive comment written to the stream this response reads
    { settings, code: lines(...eventStream([], "controller.enqueue(encoder.encode(': ping\\n\\n'));")) },
    // the timer feeds that stream and notes its client's presence on the way: once per open stream
    {
      settings,
      code: lines(
        ...eventStream(
          ["import { redis } from './redis';"],
          "controller.enqueue(encoder.encode('data: {}\\n\\n'));",
          "void redis.set('stream:lastSeen', String(Date.now()), { ex: 300 });",
        ),
      ),
    },
  ],
  invalid: [
    {
      settings,
      code: lines(...workerService(...othersUnreachable)),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 9,
          column: 3,
          suggestions: suggested(
            workerService(...othersUnreachable),
            3,
            10,
            "    if (!(await claimPeriod('lab:health-check', { cron: CronExpression.EVERY_MINUTE }))) return;",
          ),
        },
      ],
    },
    {
      settings,
      code: lines(...enqueueing),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 7,
          column: 27,
          suggestions: suggested(
            enqueueing.map((l) => l.replace('setInterval(() => {', 'setInterval(async () => {')),
            0,
            7,
            "        if (!(await claimPeriod('lab:file-7', 15_000))) return;",
          ),
        },
      ],
    },
  ],
});
