// A parameter a function saves itself is a row (saved-parameters.ts); a body is searched for the
// save only where the text may call one (`.save`, `['update']`) or spells a name with an escape.
// These shapes must be found however the save is written, and a body with no save is no row.
import { noReadThenWrite } from '../../../rules/no-read-then-write.js';
import { ruleTester } from '../rule-tester.js';

const lines = (...l: string[]): string => l.join('\n');

/** A unit that calls a write (so it is walked) with a nested function that saves its parameter as `save`. */
const nestedSave = (save: string): string =>
  lines(
    "const Log = require('../models/log');",
    'exports.visit = async (id) => {',
    '  await Log.updateOne({ _id: id }, { seen: true });',
    '  const addVisit = async (shopper) => {',
    '    shopper.visits = shopper.visits + 1;',
    `    await shopper${save}();`,
    '  };',
    '  return addVisit;',
    '};',
  );

ruleTester.run('no-read-then-write (a saved parameter, however the save is spelled)', noReadThenWrite, {
  valid: [
    // the nested function saves nothing: its parameter is no row
    nestedSave('.validate'),
  ],
  invalid: [
    { code: nestedSave('.save'), errors: 1 },
    // the name spelled with escapes: the parser decodes it, the text does not spell it
    { code: nestedSave('.sa\\u0076e'), errors: 1 },
    { code: nestedSave("['sa\\x76e']"), errors: 1 },
    { code: nestedSave('[`sa\\x76e`]'), errors: 1 },
    // a comment between the dot and the name
    { code: nestedSave('. /* the document */ save'), errors: 1 },
  ],
});
