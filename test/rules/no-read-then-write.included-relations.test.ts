// no-read-then-write when the value written back comes from a related row loaded with the read
// (Prisma `include: { show: true }`, TypeORM `relations: ['show']`) and the write changes that
// related model: the related row's values are as stale as the row's own. Not reported: the database
// doing the change, or another model written from the read row's own field.
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noReadThenWrite as unknown as Parameters<typeof ruleTester.run<string, readonly unknown[]>>[1];
const PRISMA = "import { PrismaClient } from '@prisma/client';\nconst prisma = new PrismaClient();";

/** A pass read with `readOptions`, then the show written with `data`. */
const prismaPass = (readOptions: string, data: string) =>
  lines(
    PRISMA,
    'export async function releaseSeat(passId: number) {',
    `  const pass = await prisma.pass.findUnique({ where: { id: passId }${readOptions} });`,
    `  await prisma.show.update({ where: { id: pass.showId }, data: { ${data} } });`,
    '  await prisma.pass.delete({ where: { id: passId } });',
    '}',
  );

/** The same through TypeORM repositories, the show loaded with `relations`. */
const typeormPass = (relations: string, data: string) =>
  lines(
    "import { Repository } from 'typeorm';",
    'export class SeatDesk {',
    '  constructor(private readonly passRepository: Repository<Pass>, private readonly showRepository: Repository<Show>) {}',
    '  async releaseSeat(id: number) {',
    `    const pass = await this.passRepository.findOne({ where: { id }, relations: ${relations} });`,
    `    await this.showRepository.update(pass.show.id, { ${data} });`,
    '  }',
    '}',
  );

ruleTester.run('no-read-then-write (related rows loaded with the read)', rule, {
  valid: [
    // the database does the arithmetic
    prismaPass(', include: { show: true }', 'seatsLeft: { increment: 1 }'),
    // no relation loaded: the read row's own field sent to another model is no write-back
    prismaPass('', 'seatsLeft: pass.seats + 1'),
    typeormPass('[]', 'seatsLeft: pass.seats - 1'),
  ],
  invalid: [
    {
      code: prismaPass(', include: { show: true }', 'seatsLeft: pass.show.seatsLeft + 1'),
      errors: [{ messageId: 'prisma', line: 5, column: 21 }],
    },
    {
      code: typeormPass("['show']", 'seatsLeft: pass.show.seatsLeft - 1'),
      errors: [{ messageId: 'typeorm', line: 6, column: 31 }],
    },
    {
      code: typeormPass('{ show: true }', 'seatsLeft: pass.show.seatsLeft - 1'),
      errors: [{ messageId: 'typeorm', line: 6, column: 31 }],
    },
  ],
});
