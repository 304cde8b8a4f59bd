// require-atomic-claim on a boolean flag a worker picks rows by and sets once it acted on them:
// read `{ lifted: false }`, then `mute.update({ lifted: true })` — the flag is the rows' state
// whatever it is called. Reported like a status column; quiet when the set re-checks the flag and
// its count decides, when nothing writes the flag `true` (a flag that only filters), and when the
// rows are read by the flag `true` (rows in use; the file clears the flag elsewhere).
import { ruleTester } from './rule-tester.js';
import { claim } from './claim-report.js';
import { requireAtomicClaim, type RequireAtomicClaimMessageIds } from '../../rules/require-atomic-claim.js';

const lines = (...l: string[]) => l.join('\n');
const rule = requireAtomicClaim as unknown as Parameters<typeof ruleTester.run<RequireAtomicClaimMessageIds, readonly unknown[]>>[1];

/** An hourly sweep lifting elapsed mutes: each mute is unmuted in chat, then `mark` runs. */
const liftMutes = (...mark: string[]) =>
  lines(
    "import { Op } from 'sequelize';",
    "import { Mute } from './models';",
    'export async function liftMutes(chat: Chat) {',
    '  const mutes = await Mute.findAll({ where: { lifted: false, liftAt: { [Op.lt]: new Date() } } });',
    '  for (const mute of mutes) {',
    '    await chat.unmute(mute.memberId);',
    ...mark.map((l) => `    ${l}`),
    '  }',
    '}',
  );

/** A Mongoose sweep announcing new releases; `mark` runs after each is posted. */
const announce = (...mark: string[]) =>
  lines(
    "import { Release } from './models';",
    'export async function announceReleases() {',
    '  const fresh = await Release.find({ announced: false });',
    '  for (const release of fresh) {',
    '    await feed.post(release.title);',
    ...mark.map((l) => `    ${l}`),
    '  }',
    '}',
  );

ruleTester.run('require-atomic-claim (a boolean flag filtered false, set true)', rule, {
  valid: [
    // The set re-checks the flag, and its count decides who unmutes.
    liftMutes('const [won] = await Mute.update({ lifted: true }, { where: { id: mute.id, lifted: false } });', 'if (won === 0) continue;'),
    // The flag only filters: nothing writes it `true`.
    liftMutes('await mute.update({ reviewedBy: chat.botId });'),
    // Read by the flag `true` (a file that also clears it elsewhere): rows in use, not rows waiting.
    lines(
      "import { Mute } from './models';",
      'export async function remindMuted(chat: Chat) {',
      '  const mutes = await Mute.findAll({ where: { lifted: true }, attributes: { lifted: true } });',
      '  for (const mute of mutes) {',
      '    await chat.remind(mute.memberId);',
      '    await mute.update({ lastRemindedOn: new Date() });',
      '  }',
      '}',
      'export const reMute = (id: string) => Mute.update({ lifted: false }, { where: { id } });',
    ),
    announce(
      'const { modifiedCount } = await Release.updateOne({ _id: release._id, announced: false }, { $set: { announced: true } });',
      'if (modifiedCount === 0) continue;',
    ),
  ],
  invalid: [
    claim(liftMutes('await mute.update({ lifted: true });'), 'findAll', 'lifted', 'mute.update('),
    // Another write that names the row comes first; the flag is still set after it.
    claim(
      liftMutes('await chat.mutes.remove(mute.memberId);', 'await mute.update({ lifted: true });'),
      'findAll',
      'lifted',
      'chat.mutes.remove(',
    ),
    claim(announce('release.announced = true;', 'await release.save();'), 'find', 'announced', 'release.save('),
  ],
});
