// no-read-then-write when a loader-named method of an object whose module is out of reach hands
// back a document the function changes from its own value and saves itself (`profile.save()`): only
// a loaded document saves itself, so it is a row read at the call. Not reported: a method not named
// for loading, an object named for configuration, a field set to a value not computed from the row.
import { jsRuleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noReadThenWrite as unknown as Parameters<typeof jsRuleTester.run<string, readonly unknown[]>>[1];

/** A chat command: `loader` hands back the author's profile, `change` changes it, then it is saved. */
const command = (loader: string, change: string) =>
  lines(
    'module.exports = {',
    "  name: 'claim',",
    '  run: async (bot, msg) => {',
    `    const profile = await ${loader}(msg.author);`,
    `    ${change}`,
    '    await profile.save();',
    "    return msg.reply('done');",
    '  },',
    '};',
  );

jsRuleTester.run('no-read-then-write (documents a loader method hands back, saved)', rule, {
  valid: [
    // not named for loading: the object may build the document
    command('bot.makeProfile', 'profile.gems += 5;'),
    // an object named for configuration
    command('bot.settings.getProfile', 'profile.gems += 5;'),
    // a value not computed from the document
    command('bot.fetchProfile', 'profile.gems = 5;'),
  ],
  invalid: [
    { code: command('bot.fetchProfile', 'profile.gems += 5;'), errors: [{ messageId: 'sequelize', line: 6, column: 19 }] },
    {
      code: command('bot.getProfile', 'profile.wallet = profile.wallet - msg.cost;'),
      errors: [{ messageId: 'sequelize', line: 6, column: 19 }],
    },
  ],
});
