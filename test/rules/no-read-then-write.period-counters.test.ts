// no-read-then-write and counters a period gates: a streak is changed at most once per period, the
// row stamped with the time of the change in the same write. Two first events of a period compute
// the same next value from the same row: not reported, whether the stamp is sent with the values
// (`{ currentStreak: n + 1, lastViewAt: now }`) or set on the entity saved. Reported: a streak
// written with no stamp, and any other counter stamped with the time (`views + 1, lastViewedAt`).
import { noReadThenWrite } from '../../rules/no-read-then-write.js';
import { ruleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');

/** A TypeORM row read, then `values` written on line 7. */
const view = (values: string) =>
  lines(
    "import { DataSource } from 'typeorm';",
    'export async function onView(dataSource: DataSource, userId: string, viewTime: Date) {',
    '  const repo = dataSource.getRepository(UserStreak);',
    '  const streak = await repo.findOneBy({ userId });',
    '  if (!streak) return;',
    '  const next = streak.currentStreak + 1;',
    `  await repo.update({ userId }, ${values});`,
    '}',
  );

/** A Mongoose document changed on line 6 (`stamp` on line 7), then saved on line 8 (where the report is). */
const bump = (field: string, stamp: string) =>
  lines(
    "import mongoose from 'mongoose';",
    "const User = mongoose.model('User');",
    'export async function bump(userId, now = new Date()) {',
    '  const user = await User.findById(userId);',
    '  if (!user) return;',
    `  user.${field} += 1;`,
    `  ${stamp}`,
    '  await user.save();',
    '}',
  );

ruleTester.run('no-read-then-write (counters a period gates)', noReadThenWrite, {
  valid: [
    view('{ currentStreak: next, lastViewAt: viewTime }'),
    view('{ currentStreak: next, updatedAt: new Date() }'),
    bump('streakLength', 'user.streakLastUpdatedAt = now;'),
  ],
  invalid: [
    // a streak written with no time stamped
    { code: view('{ currentStreak: next }'), errors: [{ messageId: 'typeorm', data: { field: 'currentStreak' }, line: 7, column: 14 }] },
    // another counter, stamped with the time: concurrent views still lose increments
    {
      code: view('{ currentStreak: next, views: streak.views + 1, lastViewAt: viewTime }'),
      errors: [{ messageId: 'typeorm', data: { field: 'currentStreak' }, line: 7, column: 14 }],
    },
    {
      code: bump('views', 'user.lastViewedAt = now;'),
      errors: [{ messageId: 'mongoose', data: { field: 'views' }, line: 8, column: 14 }],
    },
    // a streak whose stamp is no time
    {
      code: bump('streakLength', "user.streakNote = 'kept';"),
      errors: [{ messageId: 'mongoose', data: { field: 'streakLength' }, line: 8, column: 14 }],
    },
  ],
});
