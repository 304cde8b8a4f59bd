// no-read-then-write on a read settled by `.then` instead of `await`: the callback's parameter is
// the row read (`Product.findById(id).then((product) => { product.sum += n; return product.save(); })`),
// also when the `.then` before it returns the read (`.then(() => Product.findOne(q)).then((p) => …)`).
// Not reported: a field set from the request, a promise that is no read, a `.then` before it that
// returns something else.
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noReadThenWrite as unknown as Parameters<typeof ruleTester.run<string, readonly unknown[]>>[1];

const MONGOOSE = "import mongoose from 'mongoose';";

/** An Express-style handler rating a gadget: `chain` settles the read. */
const rate = (...chain: string[]) =>
  lines(MONGOOSE, 'export function rate(req, res) {', '  const { gadgetId, stars } = req.body;', ...chain.map((l) => `  ${l}`), '}');

ruleTester.run('no-read-then-write (reads settled by .then)', rule, {
  valid: [
    // a field set from the request: nothing read is written back
    rate('Gadget.findById(gadgetId).then((gadget) => {', '  gadget.lastStars = stars;', '  return gadget.save();', '});'),
    // a promise that is no read
    rate('loadDefaults(gadgetId).then((gadget) => {', '  gadget.starSum += stars;', '  return gadget.save();', '});'),
    // the `.then` before returns a value built in memory, not the read
    rate(
      'Gadget.findById(gadgetId)',
      '  .then((gadget) => ({ starSum: 0, id: gadget.id }))',
      '  .then((draft) => {',
      '    draft.starSum += stars;',
      '    return Draft.create(draft);',
      '  });',
    ),
  ],
  invalid: [
    {
      code: rate('Gadget.findById(gadgetId).then((gadget) => {', '  gadget.starSum += stars;', '  return gadget.save();', '});'),
      errors: [{ messageId: 'mongoose', line: 6, column: 19 }],
    },
    // a function expression, the row read by the `.then` before it
    {
      code: rate(
        'Review.create({ gadgetId, stars })',
        '  .then(() => Gadget.findOne({ _id: gadgetId }))',
        '  .then(function (gadget) {',
        '    gadget.starSum = gadget.starSum + stars;',
        '    gadget.save();',
        '  });',
      ),
      errors: [{ messageId: 'mongoose', line: 8, column: 14 }],
    },
  ],
});
