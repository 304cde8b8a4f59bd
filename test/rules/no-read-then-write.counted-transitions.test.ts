// no-read-then-write when a counter is changed atomically after a checked state's transition, on the
// path where the check passed: two requests both read the old state, both move it and both count it
// (the transition is reported too, checked-transitions). Not reported: a transition that re-checks the
// state in its filter, a counter changed before the transition or in another branch, a counter after a
// check that moves no state.
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noReadThenWrite as unknown as Parameters<typeof ruleTester.run<string, readonly unknown[]>>[1];

/** A Prisma ballot read by its key (line 2), then `body` (from line 3). */
const castBallot = (...body: string[]) =>
  lines(
    'export async function castBallot(prisma, ballotId: string, pollId?: string) {',
    '  const ballot = await prisma.ballot.findUnique({ where: { id: ballotId } });',
    ...body.map((l) => `  ${l}`),
    '  return ballot;',
    '}',
  );

const MARK_CAST = 'await prisma.ballot.update({ where: { id: ballotId }, data: { hasVoted: true } });';
const COUNT_VOTE = 'await prisma.poll.update({ where: { id: pollId }, data: { votes: { increment: 1 } } });';

const changed = (field: string, line: number, column: number) => ({ messageId: 'checkedStateChanged', data: { field }, line, column });

ruleTester.run('no-read-then-write: a counter changed after a checked state moved', rule, {
  valid: [
    // the transition re-checks the state in its filter, its count deciding: one request passes
    castBallot(
      'const { count } = await prisma.ballot.updateMany({ where: { id: ballotId, hasVoted: false }, data: { hasVoted: true } });',
      'if (count === 0) return null;',
      COUNT_VOTE,
    ),
    // a check that moves no state: the counter alone
    castBallot('if (!ballot.hasVoted) {', `  ${COUNT_VOTE}`, '}'),
  ],
  invalid: [
    {
      // held in the check's branch, the counter of another model nested below the transition
      code: castBallot('if (!ballot.hasVoted) {', `  ${MARK_CAST}`, '  if (pollId) {', `    ${COUNT_VOTE}`, '  }', '}'),
      errors: [changed('hasVoted', 4, 25), changed('hasVoted', 6, 25)],
    },
    {
      // after a check that leaves; MongoDB's `$inc` lowering a count
      code: lines(
        'export async function withdrawPledge(pledgeId: string) {',
        '  const pledge = await Pledge.findOne({ _id: pledgeId });',
        "  if (pledge.stage !== 'pledged') throw new Error('not pledged');",
        "  await Pledge.updateOne({ _id: pledgeId }, { $set: { stage: 'withdrawn' } });",
        '  await Fund.updateOne({ _id: pledge.fundId }, { $inc: { backers: -1 } });',
        '}',
      ),
      errors: [changed('stage', 4, 16), changed('stage', 5, 14)],
    },
    {
      // the counter right after the transition
      code: castBallot('if (!ballot.hasVoted) {', `  ${MARK_CAST}`, `  ${COUNT_VOTE}`, '}'),
      errors: [changed('hasVoted', 4, 25), changed('hasVoted', 5, 23)],
    },
    {
      // the counter before the transition: only the transition
      code: castBallot('if (!ballot.hasVoted) {', `  ${COUNT_VOTE}`, `  ${MARK_CAST}`, '}'),
      errors: [changed('hasVoted', 5, 25)],
    },
    {
      // the counter in the other branch: only the transition
      code: castBallot('if (!ballot.hasVoted) {', `  ${MARK_CAST}`, '} else {', `  ${COUNT_VOTE}`, '}'),
      errors: [changed('hasVoted', 4, 25)],
    },
  ],
});
