// no-read-then-write when a state is checked on the row read, then set to a constant and the row
// saved without that condition (`if (voucher.redeemed) return …; voucher.redeemed = true; await
// voucher.save()`): two requests both pass the check and both act. Reported at the save (Mongoose
// `doc.save()`, a repository's `save(row)`), also when the set and the save sit in the check's
// branch. Not reported: a check of another field (a 404 or an owner check), a conditional update
// whose filter carries the old state, a read that locks its row, a value that is not a constant, a
// check that does not gate the set, a row the request created.
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noReadThenWrite as unknown as Parameters<typeof ruleTester.run<string, readonly unknown[]>>[1];

/** A Mongoose voucher read by its code, `check`ed, then `body` (the set and the write). */
const redeem = (check: string, ...body: string[]) =>
  lines(
    "import mongoose from 'mongoose';",
    "const Voucher = mongoose.model('Voucher');",
    'export async function redeem(req, res) {',
    '  const voucher = await Voucher.findOne({ code: req.params.code });',
    '  if (!voucher) return res.sendStatus(404);',
    `  ${check}`,
    ...body.map((l) => `  ${l}`),
    '  return res.sendStatus(204);',
    '}',
  );

const USED = 'if (voucher.redeemed) return res.sendStatus(409);';

/** A TypeORM shift read through an injected repository, its state checked, then settled and saved. */
const closeShift = (read: string) =>
  lines(
    'export class ShiftService {',
    '  constructor(private readonly shifts: Repository<Shift>) {}',
    '  async close(id: string) {',
    `    const shift = await this.shifts.${read};`,
    "    if (shift.state !== ShiftState.Open) throw new Error('not open');",
    '    shift.state = ShiftState.Settled;',
    '    return this.shifts.save(shift);',
    '  }',
    '}',
  );

const error = (field: string, line: number, column: number) => ({ messageId: 'checkedStateChanged', data: { field }, line, column });

ruleTester.run('no-read-then-write (a state checked on the row read, then set and saved)', rule, {
  valid: [
    // only an owner check on another field before the set
    redeem('if (voucher.ownerId !== req.user.id) return res.sendStatus(403);', 'voucher.redeemed = true;', 'await voucher.save();'),
    // a conditional update: the filter carries the old state
    redeem(USED, 'await Voucher.updateOne({ _id: voucher._id, redeemed: false }, { redeemed: true });'),
    // a value that is not a constant
    redeem(USED, 'voucher.redeemed = req.body.redeemed;', 'await voucher.save();'),
    // a check that does not gate the set
    redeem("if (voucher.redeemed) console.log('again');", 'voucher.redeemed = true;', 'await voucher.save();'),
    // a read that locks its row
    closeShift("findOne({ where: { id }, lock: { mode: 'pessimistic_write' } })"),
    // the set in a sibling branch of the save's
    redeem(USED, 'if (req.body.keep) {', '  voucher.redeemed = true;', '} else {', '  await voucher.save();', '}'),
    // a field cleared after a check that it is set (a soft delete undone)
    redeem('if (voucher.revokedAt != null) {', '  voucher.revokedAt = null;', '  await voucher.save();', '}'),
    // a row this request created
    lines(
      "import mongoose from 'mongoose';",
      "const Draft = mongoose.model('Draft');",
      'export async function publish(body) {',
      '  const draft = await Draft.create(body);',
      "  if (draft.state === 'published') return draft;",
      "  draft.state = 'published';",
      '  return draft.save();',
      '}',
    ),
  ],
  invalid: [
    { code: redeem(USED, 'voucher.redeemed = true;', 'await voucher.save();'), errors: [error('redeemed', 8, 17)] },
    // a state compared with an enum member, set to another, saved by the repository
    { code: closeShift('findOneBy({ id })'), errors: [error('state', 7, 24)] },
    // the set and the save in the check's branch
    {
      code: redeem("if (voucher.status === 'issued') {", "  voucher.status = 'void';", '  await voucher.save();', '}'),
      errors: [error('status', 8, 19)],
    },
  ],
});
