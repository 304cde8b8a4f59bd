// no-read-then-write when the row handed in is one this worker leased: every call of the function
// that writes it back hands it an element of the rows a function of the file read skipping locked
// rows and then updated (the lease), so no other worker holds the row while this one writes it.
// Still reported: a lease function that only reads with SKIP LOCKED (the lock ends with its
// transaction), and a function also handed a row loaded some other way.
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noReadThenWrite as unknown as Parameters<typeof ruleTester.run<string, readonly unknown[]>>[1];

const LEASE_UPDATE = [
  '      await repo.createQueryBuilder().update(Parcel).set({ leaseUntil: new Date(Date.now() + 30_000) }).where("id IN (:...ids)", { ids }).execute();',
];

/** A dispatcher whose `leaseBatch` reads with `onLocked` and runs `leaseLines`; `drain` hands each row to `deliver`, then `extra`. */
const dispatcher = (onLocked: string, leaseLines: string[], extra = '') =>
  lines(
    "import { Repository } from 'typeorm';",
    "import { Parcel } from './parcel.entity';",
    'export class ParcelDispatcher {',
    '  constructor(private readonly parcelRepository: Repository<Parcel>) {}',
    '  async drain() {',
    '    const parcels = await this.leaseBatch(20);',
    '    for (const parcel of parcels) await this.deliver(parcel);',
    `    ${extra}`,
    '  }',
    '  private async deliver(parcel: Parcel) {',
    '    try {',
    '      await courier.hand(parcel.address);',
    '    } catch {',
    '      parcel.tries += 1;',
    '      await this.parcelRepository.save(parcel);',
    '    }',
    '  }',
    '  private async leaseBatch(size: number): Promise<Parcel[]> {',
    '    return this.parcelRepository.manager.transaction(async (manager) => {',
    '      const repo = manager.getRepository(Parcel);',
    "      const rows = await repo.createQueryBuilder('p').select('p.id', 'id').limit(size)",
    `        .setLock('pessimistic_write').setOnLocked('${onLocked}').getRawMany();`,
    '      const ids = rows.map((row) => row.id);',
    ...leaseLines,
    '      return repo.findBy({ id: In(ids) });',
    '    });',
    '  }',
    '}',
  );

/** The same with SQL: `lease` sent through the data source, the rows it answers handed one by one to `deliver`. */
const sqlDispatcher = (lease: string) =>
  lines(
    "import { DataSource } from 'typeorm';",
    "import { Parcel } from './parcel.entity';",
    "const dataSource = new DataSource({ type: 'postgres' });",
    'const parcelRepository = dataSource.getRepository(Parcel);',
    'async function leaseParcels(size: number): Promise<Parcel[]> {',
    `  return dataSource.query(\`${lease}\`, [size]);`,
    '}',
    'async function deliver(parcel: Parcel) {',
    '  parcel.tries += 1;',
    '  await parcelRepository.save(parcel);',
    '}',
    'export async function drain() {',
    '  for (const parcel of await leaseParcels(20)) await deliver(parcel);',
    '}',
  );

ruleTester.run('no-read-then-write (rows this worker leased)', rule, {
  valid: [
    dispatcher('skip_locked', LEASE_UPDATE),
    sqlDispatcher(
      "UPDATE parcels SET lease_until = now() + interval '30 seconds' WHERE id IN (SELECT id FROM parcels WHERE lease_until < now() LIMIT $1 FOR UPDATE SKIP LOCKED) RETURNING *",
    ),
  ],
  invalid: [
    // read skipping locked rows, but not leased: the lock ends with the lease function's transaction
    { code: dispatcher('skip_locked', []), errors: [{ messageId: 'typeorm', line: 15, column: 35 }] },
    // a lock that waits, without a lease, holds nothing after the transaction either
    {
      code: dispatcher(
        'nowait',
        LEASE_UPDATE.map((l) => l.replace('update(Parcel)', 'select()')),
      ),
      errors: [{ messageId: 'typeorm', line: 15, column: 35 }],
    },
    // also handed a row loaded some other way
    {
      code: dispatcher('skip_locked', LEASE_UPDATE, 'await this.deliver(await this.parcelRepository.findOneBy({ id: 1 }));'),
      errors: [{ messageId: 'typeorm', line: 15, column: 35 }],
    },
    // the SQL reads skipping locked rows but leases nothing
    {
      code: sqlDispatcher('SELECT * FROM parcels WHERE lease_until < now() LIMIT $1 FOR UPDATE SKIP LOCKED'),
      errors: [{ messageId: 'typeorm', line: 10, column: 26 }],
    },
  ],
});
