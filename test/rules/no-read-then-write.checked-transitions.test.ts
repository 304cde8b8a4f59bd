// no-read-then-write when a state checked on a row read by its key is then set by an update of that
// row by its key (Prisma `update({ where: { id }, data: { … } })`, Sequelize `update(values, { where })`,
// a repository's `update(id, values)`, Mongo `updateOne({ _id }, { $set })`), or set on the row and the
// row saved (no-read-then-write.checked-states.test.ts): two requests both pass the check and both act.
// The transitions require-atomic-claim reported until this round are here too, moved deliberately
// (read-write/checked-transitions.ts): one report per race. Not reported: the state re-checked in
// the update's filter, a version in the filter, a read that locks its row, a validation that throws
// and moves no state, a running flag or an in-progress state (require-atomic-claim's claim), an
// idempotent mark (archived, read).
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';
import { movedTransitions } from './read-write/checked-transitions.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noReadThenWrite as unknown as Parameters<typeof ruleTester.run<string, readonly unknown[]>>[1];

/** A Prisma invitation read by its key (line 2), `check`ed, then `body`. */
const accept = (check: string, ...body: string[]) =>
  lines(
    'export async function acceptInvite(prisma, inviteId: string, memberId: string) {',
    '  const invite = await prisma.invite.findUnique({ where: { id: inviteId } });',
    "  if (!invite) throw new Error('no invite');",
    `  ${check}`,
    ...body.map((l) => `  ${l}`),
    '  return prisma.membership.create({ data: { memberId, teamId: invite.teamId } });',
    '}',
  );

const ACCEPTED = "if (invite.accepted) throw new Error('already accepted');";

/** A TypeORM repair desk: the repair read by `read`, its stage checked, then resolved by key. */
const closeRepair = (read: string, update = "this.repairs.update(id, { stage: 'resolved' })") =>
  lines(
    'export class RepairDesk {',
    '  constructor(private readonly repairs: Repository<Repair>, private readonly mailer: Mailer) {}',
    '  async close(id: string) {',
    `    const repair = await this.repairs.${read};`,
    "    if (repair.stage !== 'open') throw new Error('not open');",
    `    await ${update};`,
    '    await this.mailer.send(repair.ownerEmail);',
    '  }',
    '}',
  );

const changed = (field: string, line: number, column: number) => ({ messageId: 'checkedStateChanged', data: { field }, line, column });

ruleTester.run('no-read-then-write: a state checked on a row read by its key, then set by an update by key', rule, {
  valid: [
    // the state re-checked in the update's filter, its count deciding
    accept(
      'const { count } = await prisma.invite.updateMany({ where: { id: inviteId, accepted: false }, data: { accepted: true } });',
      "if (count === 0) throw new Error('already accepted');",
    ),
    // an optimistic version in the filter
    closeRepair('findOneBy({ id })', "this.repairs.update({ id, revision: repair.revision }, { stage: 'resolved' })"),
    // a read that locks its row
    closeRepair("findOne({ where: { id }, lock: { mode: 'pessimistic_write' } })"),
    // a validation that throws, and another field set
    accept(ACCEPTED, "await prisma.invite.update({ where: { id: inviteId }, data: { note: 'seen by ' + memberId } });"),
    // a field set that the check did not read
    accept(
      "if (invite.expiresAt < new Date()) throw new Error('expired');",
      'await prisma.invite.update({ where: { id: inviteId }, data: { accepted: true } });',
    ),
    // a running flag: require-atomic-claim's claim of a run
    accept(
      "if (invite.isSyncing) throw new Error('busy');",
      'await prisma.invite.update({ where: { id: inviteId }, data: { isSyncing: true } });',
    ),
    // an in-progress state: the same
    accept(
      "if (invite.state !== 'queued') return null;",
      "await prisma.invite.update({ where: { id: inviteId }, data: { state: 'processing' } });",
    ),
    // an idempotent mark: archived twice is archived once
    accept(
      "if (invite.archived) throw new Error('archived');",
      'await prisma.invite.update({ where: { id: inviteId }, data: { archived: true } });',
    ),
    accept("if (invite.state === 'unread') {", "  await prisma.invite.update({ where: { id: inviteId }, data: { state: 'read' } });", '}'),
    accept("if (invite.state === 'open') {", "  await prisma.invite.update({ where: { id: inviteId }, data: { state: 'closed' } });", '}'),
    // each row of a list read, checked in the loop: a queue of pending rows (require-atomic-claim's)
    lines(
      'export async function expireDrafts(prisma) {',
      "  const drafts = await prisma.draft.findMany({ where: { kind: 'quote' } });",
      '  for (const draft of drafts) {',
      "    if (draft.state !== 'waiting') continue;",
      "    await prisma.draft.update({ where: { id: draft.id }, data: { state: 'lapsed' } });",
      '  }',
      '}',
    ),
    // the state set on a failure path the check is not in
    accept(
      "if (invite.state !== 'queued') return null;",
      'try {',
      '  await mailer.welcome(memberId);',
      '} catch (error) {',
      "  await prisma.invite.update({ where: { id: inviteId }, data: { state: 'bounced' } });",
      '}',
    ),
    // the state set to the value the check demanded: the row stays where it was
    accept(
      "if (invite?.state !== 'open' || invite.expired) throw new Error('closed');",
      "await prisma.invite.update({ where: { id: inviteId }, data: { state: 'open', note: 'seen by ' + memberId } });",
    ),
    // the same move in a migration file: a migrator runs it once, in one process
    {
      code: accept(ACCEPTED, 'await prisma.invite.update({ where: { id: inviteId }, data: { accepted: true } });'),
      filename: 'src/db/migrations/20240105-accept-legacy-invites.ts',
    },
  ],
  invalid: [
    // the row read by its key in a loop over keys, checked and moved in the same turn
    {
      code: lines(
        'export async function lapseDrafts(prisma, ids: string[]) {',
        '  for (const id of ids) {',
        '    const draft = await prisma.draft.findUnique({ where: { id } });',
        "    if (draft.state !== 'waiting') continue;",
        '    await quotes.withdraw(draft.quoteId);',
        "    await prisma.draft.update({ where: { id }, data: { state: 'lapsed' } });",
        '  }',
        '}',
      ),
      errors: [changed('state', 6, 24)],
    },
    {
      code: accept(ACCEPTED, 'await prisma.invite.update({ where: { id: inviteId }, data: { accepted: true } });'),
      errors: [changed('accepted', 5, 23)],
    },
    // checked open, moved on: a set to another value than the check demanded
    {
      code: accept(
        "if (invite?.state !== 'open' || invite.expired) throw new Error('closed');",
        "await prisma.invite.update({ where: { id: inviteId }, data: { state: 'taken' } });",
      ),
      errors: [changed('state', 5, 23)],
    },
    // a repository's update by key after a stage checked, with a mail sent on the path
    { code: closeRepair('findOneBy({ id })'), errors: [changed('stage', 6, 24)] },
    // Mongo `$set` by `_id` inside the check's block
    {
      code: lines(
        "import mongoose from 'mongoose';",
        "const Parcel = mongoose.model('Parcel');",
        'export async function release(parcelId) {',
        '  const parcel = await Parcel.findById(parcelId);',
        "  if (parcel.phase === 'held') {",
        "    await Parcel.updateOne({ _id: parcelId }, { $set: { phase: 'released' } });",
        '    await notifyCarrier(parcel.carrier);',
        '  }',
        '}',
      ),
      errors: [changed('phase', 6, 18)],
    },
  ],
});

ruleTester.run('no-read-then-write: a state moved on a row read by its key (cases moved from require-atomic-claim)', rule, {
  valid: [],
  invalid: movedTransitions,
});
