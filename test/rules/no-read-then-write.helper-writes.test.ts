// no-read-then-write when the write goes through a helper of the project named for it — a field
// setter (`updateItemField(id, 'stock', value)`), a store's method handed in (`db.updateComment(id,
// { ups })`), a keyed object (`this.saveCounter({ id, views })`) — and the read through a loader of
// a data-access object handed in (`db.getComment(id)`, `this.store.getCounter(id)`). Not reported:
// values the request gave, the value read written unchanged, a field from no read, a method of an
// object that holds no data (`ui.updateLabel`). Also an `edit` helper keyed by an identity's name
// (`MemberStore.editMember({ identifier: userId, coins })`), and a record written back by the helper named
// for what another helper read (`getProfile(memberId)`, then `updateProfile(memberId, used + 1)`).
import { jsRuleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noReadThenWrite as unknown as Parameters<typeof jsRuleTester.run<string, readonly unknown[]>>[1];
const error = (messageId: string, field: string, line: number, column: number) => ({ messageId, data: { field }, line, column });

/** An item loaded by Mongoose, then `write` sent through the module's own field setter. */
const item = (write: string) =>
  lines(
    "import { Item } from '../models/item.js';",
    'async function updateItemField(id, field, value) {',
    '  await Item.updateOne({ _id: id }, { $set: { [field]: value } });',
    '}',
    'export async function buy(id, label) {',
    '  const item = await Item.findById(id);',
    `  await ${write};`,
    '}',
  );

/** A comment loaded through the store handed in, then `write`. */
const comment = (...body: string[]) =>
  lines(
    'export async function react(event, db, ui) {',
    '  const comment = await db.getComment(event.id);',
    ...body.map((l) => `  ${l}`),
    '}',
  );

/** A wallet read through a service module, then `write` through its edit helper. */
const wallet = (write: string) =>
  lines(
    "const MemberStore = require('../members/member-store');",
    "const Ledger = require('../ledger/ledger-model');",
    'async function reward({ userId, amount }) {',
    '  const user = await MemberStore.getMember(userId);',
    `  const next = ${write};`,
    '  await MemberStore.editMember({ identifier: userId, coins: next });',
    "  await Ledger.save({ userId, amount, kind: 'reward' });",
    '}',
    'module.exports = { reward };',
  );

/** A record read and written back through a module's paired helpers. */
const quota = (value: string) =>
  lines(
    "const { getProfile, updateProfile } = require('./store');",
    'async function serve(memberId, extra) {',
    '  const profile = await getProfile(memberId);',
    '  const used = profile.used || 0;',
    `  await updateProfile(memberId, ${value});`,
    '}',
    'module.exports = { serve };',
  );

jsRuleTester.run('no-read-then-write (writes through helpers named for them)', rule, {
  valid: [
    wallet('amount'),
    wallet('Math.max(0, amount)'),
    quota('extra'),
    quota('extra + 1'),
    item("updateItemField(id, 'label', label)"),
    item("updateItemField(id, 'stock', item.stock)"),
    item("updateItemField(id, 'checkedAt', new Date())"),
    comment('await db.updateComment(event.id, { text: event.text });'),
    comment('await ui.updateLabel(event.id, { likes: comment.likes + 1 });'),
  ],
  invalid: [
    // a field setter of the module: (key, 'field', value)
    { code: item("updateItemField(id, 'stock', item.stock - 1)"), errors: [error('mongoose', 'stock', 7, 9)] },
    // a store handed in: a list rebuilt from the one read, written back whole
    {
      code: comment(
        'const ups = comment.ups || [];',
        'const next = ups.includes(event.uid) ? ups.filter((u) => u !== event.uid) : [...ups, event.uid];',
        'await db.updateComment(event.id, { ups: next });',
      ),
      errors: [error('sql', 'ups', 5, 12)],
    },
    // a keyed object handed to the class's own save helper, the row read through its store
    {
      code: lines(
        'export class Counters {',
        '  constructor(store) {',
        '    this.store = store;',
        '  }',
        '  async hit(id) {',
        '    const counter = await this.store.getCounter(id);',
        '    await this.saveCounter({ id, views: counter.views + 1, seenAt: Date.now() });',
        '  }',
        '}',
      ),
      errors: [error('sql', 'views', 7, 16)],
    },
    // an edit helper keyed by the identity it is handed
    { code: wallet('(user.coins || 0) + amount'), errors: [error('sql', 'coins', 6, 21)] },
    // the helper named for what the read helper returned: any of its fields counts
    { code: quota('used + 1'), errors: [error('sql', 'used', 5, 9)] },
  ],
});
