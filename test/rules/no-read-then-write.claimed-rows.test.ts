// no-read-then-write on a row this process holds: the function that reads it by its parameter and
// writes back `attempts + 1` is called, at every call of the file, only after a conditional
// transition claimed that row (`updateMany({ where: { id, status: 'PENDING' }, data: { status:
// 'PROCESSING' } })`) and the claim's count was checked. Reported still: a call with no claim before
// it, a claim whose count is not checked, an update that moves no state, a function called from
// nowhere in the file.
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noReadThenWrite as unknown as Parameters<typeof ruleTester.run<string, readonly unknown[]>>[1];
const error = (messageId: string, field: string, line: number, column: number) => ({ messageId, data: { field }, line, column });

/** An outbox publisher: `flush` claims each pending event with `claim`, checks it with `check`, then hands it to `processOne`. */
const publisher = (claim: string, check: string, call = 'await this.processOne(ev.id);') =>
  lines(
    "import { PrismaClient } from '@prisma/client';",
    'export class Publisher {',
    '  constructor(private prisma: PrismaClient, private bus: { emit(e: unknown): Promise<void> }) {}',
    '  async flush() {',
    "    const pending = await this.prisma.outboxEvent.findMany({ where: { status: 'PENDING' } });",
    '    for (const ev of pending) {',
    `      ${claim}`,
    `      ${check}`,
    `      ${call}`,
    '    }',
    '  }',
    '  private async processOne(id: string) {',
    '    const ev = await this.prisma.outboxEvent.findUnique({ where: { id } });',
    '    try {',
    '      await this.bus.emit(ev);',
    '    } catch {',
    "      await this.prisma.outboxEvent.update({ where: { id: ev.id }, data: { status: 'PENDING', attempts: ev.attempts + 1 } });",
    '    }',
    '  }',
    '}',
  );

const CLAIM =
  "const claimed = await this.prisma.outboxEvent.updateMany({ where: { id: ev.id, status: 'PENDING' }, data: { status: 'PROCESSING' } });";

ruleTester.run('no-read-then-write (rows a checked claim holds)', rule, {
  valid: [publisher(CLAIM, 'if (claimed.count !== 1) continue;'), publisher(CLAIM, 'if (!claimed.count) continue;')],
  invalid: [
    // No claim before the call.
    { code: publisher('', ''), errors: [error('prisma', 'attempts', 17, 37)] },
    // The claim's count is not checked: a second process goes on all the same.
    { code: publisher(CLAIM, ''), errors: [error('prisma', 'attempts', 17, 37)] },
    // An update that moves no state claims nothing.
    {
      code: publisher(
        'const claimed = await this.prisma.outboxEvent.updateMany({ where: { id: ev.id }, data: { touchedAt: new Date() } });',
        'if (claimed.count !== 1) continue;',
      ),
      errors: [error('prisma', 'attempts', 17, 37)],
    },
    // The claim names another row than the one handed over.
    {
      code: publisher(CLAIM, 'if (claimed.count !== 1) continue;', 'await this.processOne(ev.parentId);'),
      errors: [error('prisma', 'attempts', 17, 37)],
    },
  ],
});
