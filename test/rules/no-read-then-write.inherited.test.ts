// no-read-then-write: a loader a data-access class inherits from a generic base service or
// repository (`class StatsService extends BaseOrmService`, `this.findOneOrCreate(…)`) reads a row
// even when the base class is out of reach; its value changed in JavaScript and written back is a
// lost update. A class that inherits from no data-access base, or none at all, is not guessed at.
import { noReadThenWrite } from '../../rules/no-read-then-write.js';
import { ruleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');

const TYPEORM = "import { Between } from 'typeorm';";
const MONGOOSE = "import { Types } from 'mongoose';";

/** A daily counter kept by a service whose base class (another module) loads and creates the row. */
const daily = (header: string) =>
  lines(
    TYPEORM,
    "import { BaseOrmService } from '@/common/base-orm.service';",
    header,
    '  async countVisit(page: string): Promise<void> {',
    '    const day = startOfDay(new Date());',
    '    const entry = await this.findOneOrCreate({ where: { day, page } }, { day, page, visits: 0 });',
    '    await this.repository.update(entry.id, { visits: entry.visits + 1 });',
    '  }',
    '}',
  );

/** A helper of the same class that hands on its repository's loader (the repository is another module's). */
const handedOn = (loader: string) =>
  lines(
    TYPEORM,
    "import { VisitsRepository } from './visits.repository';",
    'export class VisitsService {',
    '  constructor(private readonly repository: VisitsRepository) {}',
    '  entryOf(day: Date) {',
    `    return this.repository.${loader}({ where: { day } }, { day, visits: 0 });`,
    '  }',
    '  async countVisit(): Promise<void> {',
    '    const entry = await this.entryOf(startOfDay(new Date()));',
    '    await this.repository.update(entry.id, { visits: entry.visits + 1 });',
    '  }',
    '}',
  );
/** A loader that reads the entity and returns it as plain data. */
const PLAIN_COPY = lines(
  TYPEORM,
  'async function loadEntry(repository, day) {',
  '  const existing = await repository.findOneBy({ day });',
  '  return existing.toPlain();',
  '}',
  'export async function countVisit(repository, day) {',
  '  const entry = await loadEntry(repository, day);',
  '  await repository.update(entry.id, { visits: entry.visits + 1 });',
  '}',
);

ruleTester.run('no-read-then-write (inherited loaders)', noReadThenWrite, {
  valid: [
    // No base class: an unknown method of its own is not guessed to be a read.
    daily('export class VisitsService {'),
    // A base that is no data-access class (a controller's helpers).
    daily('export class VisitsController extends BaseController {'),
    // The helper hands on something no loader name says is a row.
    handedOn('ensureDefaults'),
    // A copy made with arguments is not the row itself.
    PLAIN_COPY.replace('existing.toPlain()', "existing.pick('day')"),
  ],
  invalid: [
    { code: handedOn('findOneOrCreate'), errors: [{ messageId: 'typeorm', data: { field: 'visits' }, line: 10, column: 27 }] },
    { code: PLAIN_COPY, errors: [{ messageId: 'typeorm', data: { field: 'visits' }, line: 8, column: 20 }] },
    {
      code: daily('export class VisitsService extends BaseOrmService {'),
      errors: [{ messageId: 'typeorm', data: { field: 'visits' }, line: 7, column: 27 }],
    },
    {
      code: lines(
        MONGOOSE,
        "import { GenericRepository } from '../common/generic.repository';",
        'export class WalletRepository extends GenericRepository {',
        '  async spend(id: Types.ObjectId, amount: number) {',
        '    const wallet = await this.findActiveWallet(id);',
        "    if (wallet.balance < amount) throw new Error('insufficient funds');",
        '    await this.updateOne({ _id: id }, { balance: wallet.balance - amount });',
        '  }',
        '}',
      ),
      errors: [{ messageId: 'mongoose', data: { field: 'balance' }, line: 7, column: 16 }],
    },
  ],
});
