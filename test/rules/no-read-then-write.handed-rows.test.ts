// no-read-then-write when the row read reaches the write through another function or a helper of
// the project: a row handed to a named function of the same file that writes a field from it back
// (`this.increaseViewCount(share)` writing `views: share.views + 1`); a helper whose name says the
// field, given the value (`this.users.updateBalance(id, user.balance - amount)`) or the row changed
// in JavaScript (`User.updateImpactPoints(user)`, `User` imported from a models folder and read by
// `User.get(id)`); a bound checked on the value read, then the field changed in the check's `else`
// or in a callback it defines (a confirmation's `.then`). Not reported: a function no call of this
// file hands a read to, a value of no read, another field than the helper's name says, a value
// the request gave, a model imported from no models folder, the bound in the write's filter.
import { jsRuleTester, ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noReadThenWrite as unknown as Parameters<typeof ruleTester.run<string, readonly unknown[]>>[1];
const error = (messageId: string, field: string, line: number, column: number) => ({ messageId, data: { field }, line, column });

/** A Prisma service whose `bump` writes `views` from the row it is given; `open` calls it with `handed`. */
const shares = (read: string, handed = 'share', views = 'share.views + 1') =>
  lines(
    'export class Shares {',
    '  constructor(prisma) {',
    '    this.prisma = prisma;',
    '  }',
    '  async bump(share) {',
    `    await this.prisma.share.update({ where: { id: share.id }, data: { views: ${views} } });`,
    '  }',
    '  async open(id, body) {',
    `    const share = await ${read};`,
    "    if (!share) throw new Error('missing');",
    `    await this.bump(${handed});`,
    '  }',
    '}',
  );
const FIND = 'this.prisma.share.findFirst({ where: { id } })';

/** A payment: the user read through the repository handed in, then `write`. */
const pay = (write: string) =>
  lines(
    'export class Payments {',
    '  constructor(userRepository) {',
    '    this.userRepository = userRepository;',
    '  }',
    '  async pay(userId, amount) {',
    '    const user = await this.userRepository.findUserById(userId);',
    "    if (user.balance < amount) throw new Error('low');",
    `    ${write}`,
    '  }',
    '}',
  );

/** A user read by a model of the project (`from`), a field changed in JavaScript, then `write`. */
const penalize = (write: string, from = '../../models/user/index.js', change = 'user.impact_points -= ratio') =>
  lines(
    `import User from '${from}';`,
    'export async function penalize(mission, ratio) {',
    '  const user = await User.get(mission.assigneeId);',
    `  ${change};`,
    `  await ${write};`,
    '}',
  );

/** Coins checked on the document read, then taken off after a confirmation (`write` inside `.then`). */
const buy = (filter: string) =>
  lines(
    "const Data = require('../../models/data');",
    'module.exports = async (message, price) => {',
    '  const res = await Data.findOne({ userID: message.author.id });',
    '  if (res.coins < price) {',
    "    return message.channel.send('not enough');",
    '  } else {',
    "    message.channel.send('confirm?').then(async (msg) => {",
    `      await Data.findOneAndUpdate(${filter}, { $inc: { coins: -price } });`,
    '    });',
    '  }',
    '};',
  );

/** A top-level function raising a visit's page views on a local patch; `track` hands it `handed`. */
const visits = (handed: string) =>
  lines(
    "import { PrismaClient } from '@prisma/client';",
    "import { loadVisit } from './visits.js';",
    'const prisma = new PrismaClient();',
    'const touch = async (payload, visit) => {',
    '  const patch = { seenAt: payload.at };',
    '  patch.pageviews = (visit.pageviews || 0) + 1;',
    '  await prisma.visit.update({ where: { id: visit.id }, data: patch });',
    '};',
    'export async function track(payload) {',
    '  const visit = await loadVisit(payload.id);',
    `  await touch(payload, ${handed});`,
    '}',
  );

ruleTester.run('no-read-then-write (rows handed to functions and helpers)', rule, {
  valid: [
    // the row the function is given is not a read of this file
    shares(FIND, 'body'),
    // the function writes a value of no read
    shares(FIND, 'share', 'Date.now()'),
    // a top-level function handed the request's object, not the row read
    visits('payload'),
    // the helper's name says another field than the one computed
    pay('await this.userRepository.updateCredit(userId, user.balance - amount);'),
    // the value the request gave
    pay('await this.userRepository.updateBalance(userId, amount);'),
  ],
  invalid: [
    { code: shares(FIND), errors: [error('prisma', 'views', 6, 29)] },
    // a loader helper's row handed to a top-level function that writes from it through a local patch
    { code: visits('visit'), errors: [error('prisma', 'pageviews', 7, 22)] },
    {
      code: pay('const next = user.balance - amount;\n    await this.userRepository.updateBalance(userId, next);'),
      errors: [error('sql', 'balance', 9, 31)],
    },
  ],
});

jsRuleTester.run('no-read-then-write (helpers named for a field, bounds checked before a callback)', rule, {
  valid: [
    // the helper writes another field than the one changed
    penalize('User.updateName(user)'),
    // `User` from no models folder: not a read of the project's rows
    penalize('User.updateImpactPoints(user)', './user-cache.js'),
    // the field assigned a value from no read
    penalize('User.updateImpactPoints(user)', '../../models/user/index.js', 'user.impact_points = ratio'),
    // the bound is in the filter
    buy('{ userID: message.author.id, coins: { $gte: price } }'),
  ],
  invalid: [
    { code: penalize('User.updateImpactPoints(user)'), errors: [error('sql', 'impact_points', 5, 14)] },
    { code: buy('{ userID: message.author.id }'), errors: [error('checkedThenChanged', 'coins', 8, 18)] },
  ],
});
