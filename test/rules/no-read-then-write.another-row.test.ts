// no-read-then-write when the value read from one row is written to another: a source version's
// fields copied into a target version (the read picks `id: sourceId`, the write `id: targetId`).
// The read row is not rewritten, and two copies at once leave the target with the same copy.
// Still reported: the write picks the row read (the same parameter, a constant declared from it,
// or the row's own `id`), or the write's filter cannot be compared (a computed key).
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noReadThenWrite as unknown as Parameters<typeof ruleTester.run<string, readonly unknown[]>>[1];

/** A version's fields read by `sourceId` and written to the row `target` picks. */
const copyFields = (target: string, declare = '') =>
  lines(
    "import { PrismaClient } from '@prisma/client';",
    'const prisma = new PrismaClient();',
    'export async function copyVersion(sourceId, targetId) {',
    ...(declare ? [`  ${declare}`] : []),
    '  const source = await prisma.version.findUnique({ where: { id: sourceId }, include: { fields: true } });',
    '  const fields = source.fields.map((f) => ({ name: f.name, kind: f.kind }));',
    `  await prisma.version.update({ where: { id: ${target} }, data: { fields: { set: fields }, title: source.title.trim() } });`,
    '}',
  );

/** A knex template's tags read by `templateId` and written to the row `target` picks. */
const copyTags = (target: string) =>
  lines(
    'export async function applyTemplate(knex, templateId, projectId) {',
    "  const template = await knex('projects').where('id', templateId).first();",
    "  const tags = template.tags.filter((t) => t !== 'draft');",
    `  await knex('projects').where('id', ${target}).update({ tags });`,
    '}',
  );

/** The report on a version copy's `update` (its line and column found in the code). */
function versionReport(code: string) {
  const at = code.indexOf('update({');
  const before = code.slice(0, at);
  const line = before.split('\n').length;
  return { code, errors: [{ messageId: 'prisma', data: { field: 'fields' }, line, column: at - before.lastIndexOf('\n') }] };
}

ruleTester.run('no-read-then-write (a value copied to another row)', rule, {
  valid: [
    // Prisma: the source version's fields copied into the target version
    copyFields('targetId'),
    // knex: a template's tags applied to another project
    copyTags('projectId'),
    // TypeORM: another row picked through a parameter's field
    lines(
      'export async function cloneSettings(repo, input) {',
      '  const from = await repo.findOneBy({ id: input.fromId });',
      '  await repo.update({ id: input.toId }, { limits: from.limits.slice(0, 10) });',
      '}',
    ),
  ],
  invalid: [
    // the same row: the write picks it by the parameter the read used
    versionReport(copyFields('sourceId')),
    // the same row, through a constant declared from the parameter
    versionReport(copyFields('versionId', 'const versionId = sourceId;')),
    // the same row, by the loaded row's own key
    versionReport(copyFields('source.id')),
    // a computed key cannot be compared: kept
    versionReport(copyFields('ids[0]')),
    // knex: the tags written back to the template read
    { code: copyTags('templateId'), errors: [{ messageId: 'knex', data: { field: 'tags' }, line: 4, column: 50 }] },
    // TypeORM: the same row through the parameter's field
    {
      code: lines(
        'export async function trimSettings(repo, input) {',
        '  const from = await repo.findOneBy({ id: input.fromId });',
        '  await repo.update({ id: input.fromId }, { limits: from.limits.slice(0, 10) });',
        '}',
      ),
      errors: [{ messageId: 'typeorm', data: { field: 'limits' }, line: 3, column: 14 }],
    },
  ],
});
