// A list a row holds, made into a new list and written back whole: filtered or mapped from the
// field, turned into a `Set` / `Map` and changed, or rebuilt from the rows its keys name through a
// second query. A second request that added its own element in between is overwritten. Not: the
// new list written to another field or row, a `Set` only read, a second query keyed by a list
// the request gave. And a value computed from one loaded row written to another loaded row of the
// model (yesterday's totals into today's) is not written back where it was read.
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';
import type { DataLibrary } from '../../src/knowledge/orm-reads-writes.js';

const lines = (...l: string[]) => l.join('\n');

const PRISMA = "import { PrismaClient } from '@prisma/client';\nconst prisma = new PrismaClient();";
const MONGODB = "import { MongoClient } from 'mongodb';";

const errorAt = (messageId: DataLibrary, field: string, line: number, column: number) => [{ messageId, data: { field }, line, column }];

/** A project's role list kept on a team row (Prisma): `body` between the read and the write. */
const teamRoles = (...body: string[]) =>
  lines(
    PRISMA,
    'export async function changeRoles(teamId: string, role: string) {',
    '  const team = await prisma.team.findUniqueOrThrow({ where: { id: teamId } });',
    ...body.map((l) => `  ${l}`),
    '}',
  );

ruleTester.run('no-read-then-write (lists rebuilt and written back)', noReadThenWrite, {
  valid: [
    // filtered, but written to another field
    teamRoles(
      'const kept = team.roles.filter((r) => r !== role);',
      'await prisma.team.update({ where: { id: teamId }, data: { archivedRoles: kept } });',
    ),
    // a Set only asked, the request's list written
    teamRoles(
      'const roles = new Set(team.roles);',
      "if (roles.has(role)) throw new Error('exists');",
      'await prisma.team.update({ where: { id: teamId }, data: { roles: [role] } });',
    ),
    // on the server
    teamRoles('await prisma.team.update({ where: { id: teamId }, data: { roles: { push: role } } });'),
    // a second query keyed by the request's ids, its rows' keys written
    lines(
      MONGODB,
      'export async function setMembers(db, teamId: string, input: { userIds: string[] }) {',
      '  const users = await db.collection("users").find({ _id: { $in: input.userIds } }).toArray();',
      '  const members = users.filter((u) => u.active).map((u) => u._id);',
      '  await db.collection("teams").updateOne({ _id: teamId }, { $set: { members } });',
      '}',
    ),
    // a second query keyed by the row's list, written to another field
    lines(
      MONGODB,
      'export async function countActive(db, teamId: string) {',
      '  const team = await db.collection("teams").findOne({ _id: teamId });',
      '  const users = await db.collection("users").find({ _id: { $in: team.members } }).toArray();',
      '  const active = users.filter((u) => u.active).map((u) => u._id);',
      '  await db.collection("teams").updateOne({ _id: teamId }, { $set: { activeMembers: active } });',
      '}',
    ),
    // yesterday's row read, its delta written to today's row
    lines(
      PRISMA,
      'export async function rollup(day: Date, previous: Date, signups: number) {',
      '  const before = await prisma.dailyStat.findFirst({ where: { day: previous } });',
      '  const today = await prisma.dailyStat.findUnique({ where: { day } });',
      '  const delta = signups - (before ? before.signups : 0);',
      '  await prisma.dailyStat.update({ where: { id: today.id }, data: { signups, delta } });',
      '}',
    ),
  ],
  invalid: [
    // a filtered copy of the row's list written back to it
    {
      code: teamRoles(
        'const roles = team.roles.filter((r) => r !== role);',
        'await prisma.team.update({ where: { id: teamId }, data: { roles } });',
      ),
      errors: errorAt('prisma', 'roles', 6, 21),
    },
    // mapped from the field and written back inline
    {
      code: teamRoles('await prisma.team.update({ where: { id: teamId }, data: { roles: team.roles.map((r) => r.toLowerCase()) } });'),
      errors: errorAt('prisma', 'roles', 5, 21),
    },
    // a Set built from the field, changed, written back as an array
    {
      code: teamRoles(
        'const roles = new Set(team.roles);',
        'roles.delete(role);',
        'await prisma.team.update({ where: { id: teamId }, data: { roles: Array.from(roles) } });',
      ),
      errors: errorAt('prisma', 'roles', 7, 21),
    },
    // the same through a helper of the project that loads the row
    {
      code: lines(
        PRISMA,
        "import { loadTeam } from './teams';",
        'export async function grant(teamId: string, role: string) {',
        '  const team = await loadTeam(teamId);',
        '  const roles = new Set(team.roles);',
        '  roles.add(role);',
        '  await prisma.team.update({ where: { id: teamId }, data: { roles: [...roles] } });',
        '}',
      ),
      errors: errorAt('prisma', 'roles', 8, 21),
    },
    // a Map built from an object field, changed, written back
    {
      code: lines(
        MONGODB,
        'export async function price(db, shopId: string, sku: string, cents: number) {',
        '  const shop = await db.collection("shops").findOne({ _id: shopId });',
        '  const prices = new Map(Object.entries(shop.prices));',
        '  prices.set(sku, cents);',
        '  await db.collection("shops").updateOne({ _id: shopId }, { $set: { prices: Object.fromEntries(prices) } });',
        '}',
      ),
      errors: errorAt('mongoose', 'prices', 6, 32),
    },
    // rebuilt from the rows its keys name, through a second query, and written back
    {
      code: lines(
        MONGODB,
        'export async function leave(db, teamId: string, userId: string) {',
        '  const team = await db.collection("teams").findOne({ _id: teamId });',
        '  const users = await db.collection("users").find({ _id: { $in: team.members } }).toArray();',
        '  const members = users.filter((u) => u._id !== userId).map((u) => u._id);',
        '  await db.collection("teams").updateOne({ _id: teamId }, { $set: { members } });',
        '}',
      ),
      errors: errorAt('mongoose', 'members', 6, 32),
    },
    // the same with Prisma's `in`
    {
      code: lines(
        PRISMA,
        'export async function prune(teamId: string) {',
        '  const team = await prisma.team.findUniqueOrThrow({ where: { id: teamId } });',
        '  const users = await prisma.user.findMany({ where: { id: { in: team.memberIds }, active: true } });',
        '  await prisma.team.update({ where: { id: teamId }, data: { memberIds: users.map((u) => u.id) } });',
        '}',
      ),
      errors: errorAt('prisma', 'memberIds', 6, 21),
    },
    // a value from two rows, written to the one the filter names by its key
    {
      code: lines(
        PRISMA,
        'export async function transfer(fromId: string, toId: string) {',
        '  const from = await prisma.wallet.findUnique({ where: { id: fromId } });',
        '  const to = await prisma.wallet.findUnique({ where: { id: toId } });',
        '  await prisma.wallet.update({ where: { id: to.id }, data: { balance: from.amount + to.balance } });',
        '}',
      ),
      errors: errorAt('prisma', 'balance', 6, 23),
    },
  ],
});
