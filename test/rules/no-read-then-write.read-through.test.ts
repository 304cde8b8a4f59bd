// no-read-then-write: a helper of the file that returns what a read-through cache hands back
// (`cache.loadItem(key, () => manager.getCustomRepository(Items).findItemOrFail(…))`) returns the
// row the function it gives the cache reads, or a cached copy of it; a counter of that row bumped
// in JavaScript and saved is a lost update. A function handed over that reads nothing, or a method
// of a custom repository that no loader name says reads a row, is not guessed at.
import { noReadThenWrite } from '../../rules/no-read-then-write.js';
import { ruleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');

/** `itemFromCache` hands the cache `miss` (a `const` of the helper, or inline when `inline`); `viewItem` bumps and saves (line 12). */
const readThrough = (miss: string, inline = false) =>
  lines(
    "import { EntityManager } from 'typeorm';",
    "import { ItemRepository } from '../repository/ItemRepository';",
    'export const itemFromCache = async (context: Context, key: string) => {',
    ...(inline ? [] : [`  const onMiss = () => ${miss};`]),
    `  const item = await context.cache.loadItem(key, ${inline ? `() => ${miss}` : 'onMiss'});`,
    "  if (item == null) throw new Error('ITEM_NOT_FOUND');",
    '  return item;',
    '};',
    'export const viewItem = async (context: Context, key: string, manager: EntityManager) => {',
    '  const item = await itemFromCache(context, key);',
    '  item.viewCount++;',
    ...(inline ? ['  // the same save'] : []),
    '  await manager.save(item);',
    '};',
  );

const bumped = (line: number) => [{ messageId: 'typeorm' as const, data: { field: 'viewCount' }, line, column: 17 }];

ruleTester.run('no-read-then-write (read-through caches)', noReadThenWrite, {
  valid: [
    // the function given to the cache builds a value, reads no row
    readThrough('({ key, viewCount: 0 })'),
    // a custom repository's method whose name says nothing of a read
    readThrough('context.manager.getCustomRepository(ItemRepository).ensureItem({ key })'),
  ],
  invalid: [
    { code: readThrough('context.manager.getCustomRepository(ItemRepository).findItemOrFail({ key })'), errors: bumped(12) },
    { code: readThrough('context.manager.getRepository(Item).findOneByOrFail({ key })', true), errors: bumped(12) },
  ],
});
