// A list a row holds in one field, grown in JavaScript and written back whole: a second request
// that added its own element in between is overwritten. Grown in place (`push`, `unshift`,
// `splice`, also through a local) or built around itself (`[...row.tags, tag]`), and written to
// the same field. Not a list copied unchanged, a list written to another field, an object merged
// into a field, or a Mongoose document saved after `push` (Mongoose sends `$push`).
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';
import type { DataLibrary } from '../../src/knowledge/orm-reads-writes.js';

const lines = (...l: string[]) => l.join('\n');

const PRISMA = "import { PrismaClient } from '@prisma/client';\nconst prisma = new PrismaClient();";
const MONGODB = "import { MongoClient } from 'mongodb';";
const MONGOOSE = "import mongoose from 'mongoose';";

/** A function adding `groupId` to an account's groups, read with the MongoDB driver: `body` between the read and the write. */
const addGroup = (...body: string[]) =>
  lines(
    MONGODB,
    'export async function addToGroup(db, accountId: string, groupId: string) {',
    '  const account = await db.collection("accounts").findOne({ _id: accountId });',
    ...body.map((l) => `  ${l}`),
    '}',
  );

const errorAt = (messageId: DataLibrary, field: string, line: number, column: number) => [{ messageId, data: { field }, line, column }];

ruleTester.run('no-read-then-write (lists written back)', noReadThenWrite, {
  valid: [
    // copied unchanged
    addGroup('const groups = account.groups;', 'await db.collection("accounts").updateOne({ _id: accountId }, { $set: { groups } });'),
    // grown, but written to another field
    addGroup(
      'const groups = account.groups;',
      'groups.push(groupId);',
      'await db.collection("accounts").updateOne({ _id: accountId }, { $set: { previousGroups: groups } });',
    ),
    // a list built from the request alone
    addGroup('await db.collection("accounts").updateOne({ _id: accountId }, { $set: { groups: [groupId, "members"] } });'),
    // an element added on the server
    addGroup('await db.collection("accounts").updateOne({ _id: accountId }, { $addToSet: { groups: groupId } });'),
    // Mongoose turns `push` on a document array into `$push`
    lines(
      MONGOOSE,
      'export async function tag(id: string, tag: string) {',
      '  const post = await Post.findById(id);',
      '  post.tags.push(tag);',
      '  await post.save();',
      '}',
    ),
    // the MongoDB driver's collection, the arithmetic on the server
    addGroup('await db.collection("accounts").updateOne({ _id: accountId }, { $inc: { credits: 1 } });'),
    // an object merged into a field: not followed
    lines(
      PRISMA,
      'export async function theme(id: string, theme: string) {',
      '  const user = await prisma.user.findUnique({ where: { id } });',
      '  await prisma.user.update({ where: { id }, data: { settings: { ...user.settings, theme } } });',
      '}',
    ),
  ],
  invalid: [
    // grown in place through a local, written back with `$set`
    {
      code: addGroup(
        'const groups = Array.isArray(account.groups) ? account.groups : [];',
        'groups.push(groupId);',
        'await db.collection("accounts").updateOne({ _id: accountId }, { $set: { groups } });',
      ),
      errors: errorAt('mongoose', 'groups', 6, 35),
    },
    // grown in place on the row
    {
      code: addGroup(
        'account.groups.unshift(groupId);',
        'await db.collection("accounts").updateOne({ _id: accountId }, { $set: { groups: account.groups } });',
      ),
      errors: errorAt('mongoose', 'groups', 5, 35),
    },
    // the MongoDB driver's collection handed out by name: arithmetic written back with `$set`
    {
      code: addGroup('await db.collection("accounts").updateOne({ _id: accountId }, { $set: { credits: account.credits + 1 } });'),
      errors: errorAt('mongoose', 'credits', 4, 35),
    },
    // built around itself (Prisma)
    {
      code: lines(
        PRISMA,
        'export async function tag(id: string, tag: string) {',
        '  const post = await prisma.post.findUnique({ where: { id } });',
        '  await prisma.post.update({ where: { id }, data: { tags: [...post.tags, tag] } });',
        '}',
      ),
      errors: errorAt('prisma', 'tags', 5, 21),
    },
  ],
});
