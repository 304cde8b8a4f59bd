// no-read-then-write on a Prisma relation list changed from its loaded value: links added or dropped
// one by one (`connect`, `disconnect`, `connectOrCreate`) do not write the list whole, so nothing a
// concurrent request linked is lost; `set` replaces the list with what this request computed.
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noReadThenWrite as unknown as Parameters<typeof ruleTester.run<string, readonly unknown[]>>[1];

/** A location's kits loaded, a list computed from them, and written with `op`. */
const relink = (op: string) =>
  lines(
    "import { PrismaClient } from '@prisma/client';",
    'const db = new PrismaClient();',
    'export async function updateLocationKits(locationId, added, removed) {',
    '  const location = await db.location.findUnique({ where: { id: locationId }, select: { kits: true } });',
    '  const kitIds = [...added, ...location.kits.map((k) => k.id).filter((id) => !removed.includes(id))];',
    `  await db.location.update({ where: { id: locationId }, data: { kits: { ${op}: kitIds.map((id) => ({ id })) } } });`,
    '}',
  );

ruleTester.run('no-read-then-write (relation links)', rule, {
  valid: [relink('connect'), relink('disconnect')],
  invalid: [{ code: relink('set'), errors: [{ messageId: 'prisma', data: { field: 'kits' }, line: 6, column: 21 }] }],
});
