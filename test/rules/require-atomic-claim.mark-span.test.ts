// Where require-atomic-claim reports: from the read of pending rows to the write, in the read's own
// function, that marks a read row (raw `UPDATE … WHERE id = $1` in a loop, `row.save()` after a
// state is set, an ORM `update({ … }, { where: { id } })`, a mark in a callback over the rows),
// the message naming the write's line. On the read alone when that function marks nothing (rows
// only published, the mark in another helper) or only deletes another table's rows by the rows'
// keys. A write to another table keyed by the row is not the mark: the span ends at the row's own.
import { expect, test } from 'vitest';
import { Linter } from 'eslint';
import tsParser from '@typescript-eslint/parser';
import { ruleTester } from './rule-tester.js';
import { requireAtomicClaim, type RequireAtomicClaimMessageIds } from '../../rules/require-atomic-claim.js';

const lines = (...l: string[]) => l.join('\n');
const rule = requireAtomicClaim as unknown as Parameters<typeof ruleTester.run<RequireAtomicClaimMessageIds, readonly unknown[]>>[1];

/** Line and 1-based column of the first `needle` in `code` at or after `from`. */
function find(code: string, needle: string, from = 0): { line: number; column: number; index: number } {
  const index = code.indexOf(needle, from);
  if (index === -1) throw new Error(`${needle} not in test code`);
  const before = code.slice(0, index);
  return { line: before.split('\n').length, column: index - before.lastIndexOf('\n'), index };
}

/** A report from `read` to the end of `mark` (the whole write, first after the read), naming the mark's line. */
function spanned(code: string, read: string, mark: string, column = 'status') {
  const start = find(code, read);
  const at = find(code, mark, start.index);
  const end = find(code, mark.split('\n').pop()!, at.index + mark.length - mark.split('\n').pop()!.length);
  const markedAt = ` (at line ${at.line}, where this report ends)`;
  const endColumn = end.column + mark.split('\n').pop()!.length;
  return {
    code,
    errors: [
      {
        messageId: 'nonAtomicClaim' as const,
        data: { column, markedAt },
        line: start.line,
        column: start.column,
        endLine: end.line,
        endColumn,
      },
    ],
  };
}

/** A report on `read` alone. */
function atRead(code: string, read: string, column = 'status') {
  const start = find(code, read);
  return {
    code,
    errors: [
      {
        messageId: 'nonAtomicClaim' as const,
        data: { column, markedAt: '' },
        line: start.line,
        column: start.column,
        endLine: start.line,
        endColumn: start.column + read.length,
      },
    ],
  };
}

/** A report from `read` to the end of the `nth` (1-based) `mark` after it, naming that mark's line. */
function spannedTo(code: string, read: string, mark: string, nth: number, column = 'status') {
  const start = find(code, read);
  let at = find(code, mark, start.index);
  for (let i = 1; i < nth; i++) at = find(code, mark, at.index + mark.length);
  return {
    code,
    errors: [
      {
        messageId: 'nonAtomicClaim' as const,
        data: { column, markedAt: ` (at line ${at.line}, where this report ends)` },
        line: start.line,
        column: start.column,
        endLine: at.line,
        endColumn: at.column + mark.length,
      },
    ],
  };
}

/** A badge issuer: reads the badges not issued yet, and for each runs `each` (the badge is `badge`). */
const issuer = (read: string, ...each: string[]) =>
  lines(
    "import { pool, Badge, bus } from './store';",
    'export async function issueBadges() {',
    `  ${read}`,
    '  for (const badge of pending) {',
    ...each.map((l) => `    ${l}`),
    '  }',
    '}',
  );

/** A class whose `issueAll` hands each new badge to `issueOne` (written `below` or `above` it), which runs `body`. */
const desk = (where: 'below' | 'above', body: string[]) => {
  const loop = [
    '  async issueAll() {',
    "    const pending = await Badge.findAll({ where: { state: 'new' } });",
    '    for (const badge of pending) await this.issueOne(badge);',
    '  }',
  ];
  const handler = ['  private async issueOne(badge: { id: number }) {', ...body.map((l) => `    ${l}`), '  }'];
  return lines(
    "import { Badge } from './store';",
    'export class BadgeDesk {',
    ...(where === 'below' ? [...loop, ...handler] : [...handler, ...loop]),
    '}',
  );
};

const PG_READ = 'const { rows: pending } = await pool.query("SELECT * FROM badges WHERE state = \'new\' LIMIT 50");';
const ORM_READ = "const pending = await Badge.findAll({ where: { state: 'new' } });";
const PG_MARK = 'pool.query("UPDATE badges SET state = \'issued\' WHERE id = $1", [badge.id])';

ruleTester.run('require-atomic-claim: the report spans from the read to the mark', rule, {
  valid: [
    // each row handed to a method of the class below the loop that claims it: a checked conditional transition
    desk('below', [
      "const [won] = await Badge.update({ state: 'issued' }, { where: { id: badge.id, state: 'new' } });",
      'if (won === 0) return;',
      'await engrave(badge);',
    ]),
    // each row claimed in a callback over the rows: a checked conditional transition first
    lines(
      "import { Badge } from './store';",
      'export async function issueBadges() {',
      "  const pending = await Badge.findAll({ where: { state: 'new' } });",
      '  pending.forEach(async (badge) => {',
      "    const [won] = await Badge.update({ state: 'issued' }, { where: { id: badge.id, state: 'new' } });",
      '    if (won === 0) return;',
      '    await engrave(badge);',
      '  });',
      '}',
    ),
    // only a row of another table written, keyed by the row: nothing read is marked
    issuer(PG_READ, 'await engrave(badge);', "await pool.query('UPDATE engravers SET busy_at = now() WHERE badge_id = $1', [badge.id]);"),
  ],
  invalid: [
    // a row set aside early (`…; continue`) before the work: the span runs on to the mark after the work
    spannedTo(
      issuer(
        ORM_READ,
        "if (!badge.holderId) { badge.state = 'void'; await badge.save(); continue; }",
        'await engrave(badge);',
        "badge.state = 'issued';",
        'await badge.save();',
      ),
      'findAll',
      'badge.save()',
      2,
      'state',
    ),
    // something else removed first (a cache entry, not a row of the table): not the mark — the span ends at the row's own
    spanned(
      issuer(ORM_READ, 'await frames.cache.remove(badge.code);', "await badge.update({ state: 'issued' });"),
      'findAll',
      "badge.update({ state: 'issued' })",
      'state',
    ),
    // each row handed to a method of the class below the loop: the span runs on to the method's write
    spanned(
      desk('below', ['await engrave(badge);', "await Badge.update({ state: 'issued' }, { where: { id: badge.id } });"]),
      'findAll',
      "Badge.update({ state: 'issued' }, { where: { id: badge.id } })",
      'state',
    ),
    // the method written above the loop: the span ends at the call handing it the row
    spanned(
      desk('above', ['await engrave(badge);', "await Badge.update({ state: 'issued' }, { where: { id: badge.id } });"]),
      'findAll',
      'this.issueOne(badge)',
      'state',
    ),
    // raw SQL: an UPDATE … WHERE id = $1 in the loop over the rows
    spanned(issuer(PG_READ, 'await engrave(badge);', `await ${PG_MARK};`), 'SELECT', PG_MARK, 'state'),
    // the state set on the row, then the row saved
    spanned(
      issuer(ORM_READ, 'await engrave(badge);', "badge.state = 'issued';", 'await badge.save();'),
      'findAll',
      'badge.save()',
      'state',
    ),
    // the ORM's update by the row's key
    spanned(
      issuer(ORM_READ, 'await engrave(badge);', "await Badge.update({ state: 'issued' }, { where: { id: badge.id } });"),
      'findAll',
      "Badge.update({ state: 'issued' }, { where: { id: badge.id } })",
      'state',
    ),
    // a mark written over several lines: the message names where it starts, the report ends where it does
    spanned(
      issuer(ORM_READ, 'await engrave(badge);', 'await Badge.update(', "  { state: 'issued' },", '  { where: { id: badge.id } },', ');'),
      'findAll',
      "Badge.update(\n      { state: 'issued' },\n      { where: { id: badge.id } },\n    )",
      'state',
    ),
    // a write to another table keyed by the row first: not the mark — the span ends at the row's own
    spanned(
      issuer(PG_READ, "await pool.query('UPDATE engravers SET busy_at = now() WHERE badge_id = $1', [badge.id]);", `await ${PG_MARK};`),
      'SELECT',
      PG_MARK,
      'state',
    ),
    // marked in an async callback over the rows
    spanned(
      lines(
        "import { Badge } from './store';",
        'export async function issueBadges() {',
        "  const pending = await Badge.findAll({ where: { state: 'new' } });",
        '  pending.forEach(async (badge) => {',
        '    await engrave(badge);',
        "    await badge.update({ state: 'issued' });",
        '  });',
        '}',
      ),
      'findAll',
      "badge.update({ state: 'issued' })",
      'state',
    ),
    // the rows' children deleted by the rows' keys: work on them, not their mark — at the read
    atRead(
      lines(
        "import { db } from './store';",
        'export async function dropRetired() {',
        "  const retired = await db.badge.findMany({ where: { state: 'retired' }, select: { id: true } });",
        '  const ids = retired.map((b) => b.id);',
        '  await bus.publish(ids);',
        '  await db.ribbon.deleteMany({ where: { badgeId: { in: ids } } });',
        '}',
      ),
      'findMany',
      'state',
    ),
    // rows only published where they are read; the mark is another helper's: at the read
    {
      ...atRead(
        lines(
          "import { pool, bus } from './store';",
          'export async function announceNewBadges() {',
          '  const result = await pool.query("SELECT * FROM badges WHERE sent_at IS NULL ORDER BY id");',
          '  for (const badge of result.rows) await bus.publish(badge);',
          '  return result.rows;',
          '}',
          'export async function markBadgeAnnounced(badgeId: number) {',
          '  await pool.query("UPDATE badges SET sent_at = now() WHERE id = $1", [badgeId]);',
          '}',
        ),
        'SELECT',
        'sent_at',
      ),
      filename: 'src/data/badges.ts',
    },
    // the SELECT held in a constant above the call that sends it, the mark another helper's: from the SELECT to that call
    {
      code: lines(
        "import { pool, bus } from './store';",
        'export async function announceNewBadges() {',
        '  const unsent = `',
        '    SELECT * FROM badges WHERE sent_at IS NULL ORDER BY id',
        '  `;',
        '  const result = await pool.query(unsent);',
        '  for (const badge of result.rows) await bus.publish(badge);',
        '  return result.rows;',
        '}',
        'export async function markBadgeAnnounced(badgeId: number) {',
        '  await pool.query("UPDATE badges SET sent_at = now() WHERE id = $1", [badgeId]);',
        '}',
      ),
      filename: 'src/data/badges.ts',
      errors: [
        {
          messageId: 'nonAtomicClaim' as const,
          data: { column: 'sent_at', markedAt: '' },
          line: 4,
          column: 5,
          endLine: 6,
          endColumn: 42,
        },
      ],
    },
  ],
});

test('a disable comment above the read still silences a report that spans to the mark', () => {
  const linter = new Linter({ configType: 'flat' });
  const config = [
    {
      files: ['**/*.ts'],
      languageOptions: { parser: tsParser as never },
      plugins: { rg: { rules: { claim: requireAtomicClaim as never } } },
      rules: { 'rg/claim': 'error' as const },
    },
  ];
  const code = issuer(PG_READ, 'await engrave(badge);', `await ${PG_MARK};`);
  expect(linter.verify(code, config, 'src/badges.ts').map((m) => [m.line, m.endLine])).toEqual([[3, 6]]);
  const disabled = code.replace(`  ${PG_READ}`, `  // eslint-disable-next-line rg/claim\n  ${PG_READ}`);
  expect(linter.verify(disabled, config, 'src/badges.ts')).toEqual([]);
});
