// no-read-then-write on a loaded row changed, then handed to TypeORM's `preload` (the stored entity
// with the given values laid over it) and the result saved: the change made from the value read
// is written back. Also a copy spread from a row changed before it was copied. Not reported: a
// row changed only with values from the request, a `preload` of the request's own object.
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noReadThenWrite as unknown as Parameters<typeof ruleTester.run<string, readonly unknown[]>>[1];

/** A TypeORM service: `body` after the article is loaded. */
const service = (...body: string[]) =>
  lines(
    "import { Repository } from 'typeorm';",
    'export class ArticlesService {',
    '  constructor(private readonly articles: Repository<Article>) {}',
    '  async touch(id: string, dto: { title: string }) {',
    '    const article = await this.articles.findOne({ where: { id } });',
    ...body.map((l) => `    ${l}`),
    '  }',
    '}',
  );

ruleTester.run('no-read-then-write (preload of a changed row)', rule, {
  valid: [
    service(
      'article.title = dto.title;',
      'const next = await this.articles.preload({ id, ...article });',
      'return this.articles.save(next);',
    ),
    service('const next = await this.articles.preload({ id, ...dto });', 'return this.articles.save(next);'),
  ],
  invalid: [
    {
      code: service(
        'article.reads += 1;',
        'const next = await this.articles.preload({ id, ...article });',
        'return this.articles.save(next);',
      ),
      errors: [{ messageId: 'typeorm', line: 8, column: 26 }],
    },
    {
      code: service(
        'article.reads = article.reads + 1;',
        'const copy = { ...article, title: dto.title };',
        'return this.articles.save(copy);',
      ),
      errors: [{ messageId: 'typeorm', line: 8, column: 26 }],
    },
  ],
});
