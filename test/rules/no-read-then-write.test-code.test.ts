// Test code runs in one process against a throw-away database: a read changed and written back
// there (a seed, a test that shows the very race) is no lost update in production. Judged by the
// path inside the project, as the other rules judge test code.
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');

/** A counter read with Prisma and written back increased by one. */
const BUMP = lines(
  "import { PrismaClient } from '@prisma/client';",
  'const prisma = new PrismaClient();',
  'export async function bump(id: string) {',
  '  const row = await prisma.counter.findUniqueOrThrow({ where: { id } });',
  '  await prisma.counter.update({ where: { id }, data: { hits: row.hits + 1 } });',
  '}',
);

/** A TypeORM entity changed in place and saved, inside a test. */
const SPEC = lines(
  "import { DataSource } from 'typeorm';",
  "it('keeps the stock', async () => {",
  '  const item = await repo.findOneBy({ sku });',
  '  item.stock -= 2;',
  '  await repo.save(item);',
  '});',
);

const hits = { messageId: 'prisma' as const, data: { field: 'hits' }, line: 5, column: 24 };

ruleTester.run('no-read-then-write (test code)', noReadThenWrite, {
  valid: [
    { code: BUMP, filename: 'src/counters.test.ts' },
    { code: BUMP, filename: 'src/counters.spec.ts' },
    { code: BUMP, filename: 'test/helpers/seed-counters.ts' },
    { code: BUMP, filename: 'packages/store/src/__tests__/counters.ts' },
    { code: SPEC, filename: 'apps/api/src/items/items.e2e-spec.ts' },
  ],
  invalid: [
    { code: BUMP, filename: 'src/counters.ts', errors: [hits] },
    // a word like "test" inside a file or folder name is not a test folder
    { code: BUMP, filename: 'src/contest/counters.ts', errors: [hits] },
    { code: BUMP, filename: 'src/latest-counters.ts', errors: [hits] },
    {
      code: SPEC,
      filename: 'apps/api/src/items/items.service.ts',
      errors: [{ messageId: 'typeorm', data: { field: 'stock' }, line: 5, column: 14 }],
    },
  ],
});
