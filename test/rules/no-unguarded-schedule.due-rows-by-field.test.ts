// no-unguarded-schedule on a bare timer whose work loads the rows due for work through the project's
// data-access object (`await this.leaseRepository.findOverdue(now)`, `await prisma.outboxMail.findMany(…)`)
// and hands each row on by a field, or in an object built from its fields, to an awaited function it cannot
// read (`await this.returnBike.execute({ leaseId: lease.id })`, `await deliverMail(mail.id)`): business work
// on shared rows, reported as a declared job is. The timer may run a method of the class (`this.sweepOverdue()`)
// or a function of the file. Twins whose rows are only logged or kept in this process's memory, one whose
// loader names no due rows on an object that is no data access, and a field handed to a call whose answer is
// kept (a read) or to a bag of helpers, stay quiet.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { lines, suggested } from './schedule-suggestion.js';

const settings = { 'replica-guard': { service: 'bikes' } };

/** A service whose interval runs `this.sweepOverdue()`, which loads with `load` and runs `each` per lease. */
const sweeperLines = (load: string, each: string) => [
  "import { LeaseRepository } from './lease.repository';",
  "import { ReturnBikeUseCase } from './return-bike.use-case';",
  'export class LeaseSweeper {',
  '  private readonly seen = new Set<string>();',
  '  constructor(',
  '    private readonly leaseRepository: LeaseRepository,',
  '    private readonly returnBike: ReturnBikeUseCase,',
  '    private readonly clock: { getExpiredTicks(): Promise<{ id: string }[]> },',
  '  ) {}',
  '  onModuleInit(): void {',
  '    setInterval(async () => {',
  '      await this.sweepOverdue();',
  '    }, 120_000);',
  '  }',
  '  private async sweepOverdue(): Promise<void> {',
  '    try {',
  `      const overdue = await ${load};`,
  '      for (const lease of overdue) {',
  `        ${each}`,
  '      }',
  '    } catch (error) {',
  "      console.error('sweep failed', error);",
  '    }',
  '  }',
  '}',
];
const sweeper = (load: string, each: string) => lines(...sweeperLines(load, each));

const LOAD = 'this.leaseRepository.findOverdue(new Date())';
const RETURN = "await this.returnBike.execute({ leaseId: lease.id, reason: 'overdue' });";

/** A file whose timer runs `drainOutbox()`, reading unsent mails and handing each one's id on. */
const outboxLines = (each: string) => [
  "import { PrismaClient } from '@prisma/client';",
  "import { deliverMail } from './mail/deliver';",
  'const prisma = new PrismaClient();',
  'export async function drainOutbox(): Promise<void> {',
  "  const mails = await prisma.outboxMail.findMany({ where: { state: 'unsent' }, take: 20 });",
  '  for (const mail of mails) {',
  `    ${each}`,
  '  }',
  '}',
  'setInterval(() => {',
  '  drainOutbox();',
  '}, 5_000);',
];
const outbox = (each: string) => lines(...outboxLines(each));
const DELIVER = 'await deliverMail(mail.id);';

ruleTester.run('no-unguarded-schedule: due rows handed on by a field', noUnguardedSchedule, {
  valid: [
    // the rows are only logged
    { settings, code: sweeper(LOAD, "console.log('overdue', lease.id);") },
    // their ids are kept in this process's memory
    { settings, code: sweeper(LOAD, 'this.seen.add(lease.id);') },
    // a loader named for due rows on an object that is no data access: a clock's ticks
    { settings, code: sweeper('this.clock.getExpiredTicks()', "await this.returnBike.execute({ leaseId: lease.id, reason: 'overdue' });") },
    { settings, code: outbox("console.info('queued', mail.id);") },
    // the id handed to a read whose answer is kept, or to a bag of helpers
    { settings, code: sweeper(LOAD, 'const fine = await this.leaseRepository.fineFor(lease.id);') },
    { settings, code: sweeper(LOAD, 'await this.formatHelpers.describe({ leaseId: lease.id });') },
  ],
  invalid: [
    // each overdue lease's id, in an object, handed to a use case of another module
    {
      settings,
      code: sweeper(LOAD, RETURN),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 11,
          column: 17,
          suggestions: suggested(
            sweeperLines(LOAD, RETURN),
            1,
            15,
            "    if (!(await claimPeriod('bikes:sweep-overdue', 120_000))) return;",
          ),
        },
      ],
    },
    // each unsent mail's id handed to another module's function
    {
      settings,
      code: outbox(DELIVER),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 10,
          column: 13,
          suggestions: suggested(outboxLines(DELIVER), 1, 4, "  if (!(await claimPeriod('bikes:drain-outbox', 5_000))) return;"),
        },
      ],
    },
  ],
});
