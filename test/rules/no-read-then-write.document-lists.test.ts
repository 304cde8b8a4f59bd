// no-read-then-write on a field changed through a non-null assertion (`product.quantity! -= n`), and
// not on an array's `find(predicate)` over values read from no database. A Mongoose list read
// (`Model.find(filter)`) is not yet taken as a read: its documents' keys name the rows of later
// reads in the same loop, and the engine then loses the later read's own finding.
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noReadThenWrite as unknown as Parameters<typeof ruleTester.run<string, readonly unknown[]>>[1];
const error = (messageId: string, field: string, line: number, column: number) => ({ messageId, data: { field }, line, column });

/** Stock taken off the product of `ids[i]` picked from the list, then saved. */
const allocate = (list: string, change: string) =>
  lines(
    "import Product from '../models/product';",
    'export async function onOrder(ids: string[], counts: number[]) {',
    `  const products = ${list};`,
    '  for (let i = 0; i < ids.length; i++) {',
    '    const product = products.find((p) => p.id === ids[i]);',
    '    if (!product) continue;',
    `    ${change};`,
    '    await product.save();',
    '  }',
    '}',
  );

/** One product read by id, its stock taken off through a non-null assertion, then saved. */
const takeStock = (change: string) =>
  lines(
    "import Product from '../models/product';",
    'export async function onOrder(id: string, count: number) {',
    '  const product = await Product.findById(id);',
    `  ${change};`,
    '  await product!.save();',
    '}',
  );

ruleTester.run('no-read-then-write (lists read from no database, non-null changes)', rule, {
  valid: [
    // The array's own `find` over values read from no database.
    allocate('await loadCatalogue()', 'product.quantity! -= counts[i]'),
    allocate('cart.items', 'product.quantity -= counts[i]'),
  ],
  invalid: [
    { code: takeStock('product!.quantity! -= count'), errors: [error('mongoose', 'quantity', 5, 18)] },
    { code: takeStock('product!.quantity -= count'), errors: [error('mongoose', 'quantity', 5, 18)] },
  ],
});
