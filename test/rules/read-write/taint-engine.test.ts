// The taint engine on its own: driven by ESLint's traversal through a bare rule that reports the
// engine's findings as `read line → write line: fields`, so each case asserts what the engine
// found (read site, write site, fields, the `x ± n` shape, the bound check) without the rule's
// messages in the way.
import type { TSESLint } from '@typescript-eslint/utils';
import type { Rule } from 'eslint';
import { describe, expect, test } from 'vitest';
import { ReadThenWriteEngine, type ReadThenWriteFinding } from '../../../rules/no-read-then-write/taint-engine.js';
import { lintWithProbe } from './probe-lint.js';

function findingsIn(code: string, ignoredFields: string[] = []): ReadThenWriteFinding[] {
  const found: ReadThenWriteFinding[] = [];
  const probe: Rule.RuleModule = {
    create(context) {
      const engine = new ReadThenWriteEngine({
        sourceCode: context.sourceCode as unknown as TSESLint.SourceCode,
        ignoredFields: new Set(ignoredFields),
        sqlReads: true,
        sqlWrites: true,
      });
      return {
        ...(engine.listeners() as Rule.RuleListener),
        'Program:exit'() {
          found.push(...engine.findings());
        },
      };
    },
  };
  lintWithProbe(code, probe);
  return found;
}

const summary = (f: ReadThenWriteFinding): string =>
  `${f.library} read@${f.facts.read.loc.start.line} write@${f.facts.write.loc.start.line} ${f.facts.fields.join(',')} ${f.facts.operator ?? '?'}${f.facts.operand ?? ''}`;

describe('ReadThenWriteEngine', () => {
  test('a Prisma read whose field is written back plus n', () => {
    const findings = findingsIn(`
      export async function addCredits(db: Db, walletId: string, credits: number) {
        const wallet = await db.wallet.findUnique({ where: { id: walletId } });
        await db.wallet.update({ where: { id: walletId }, data: { credits: wallet.credits + credits } });
      }`);
    expect(findings.map(summary)).toEqual(['prisma read@3 write@4 credits +credits']);
    // On the write method (ESTree columns are 0-based).
    expect(findings[0]?.node.loc.start).toEqual({ line: 4, column: 24 });
  });

  test('an entity mutated in place and saved carries the mutation as the change', () => {
    const findings = findingsIn(`
      import { Repository } from 'typeorm';
      export async function bumpSeats(seats: Repository<Plan>, planId: string) {
        const plan = await seats.findOneBy({ id: planId });
        plan.usedSeats += 2;
        await seats.save(plan);
      }`);
    expect(findings.map(summary)).toEqual(['typeorm read@4 write@6 usedSeats +2']);
  });

  test('a read that locks its row gives no finding', () => {
    expect(
      findingsIn(`
      export async function debit(knex: Knex, id: number, cents: number) {
        const row = await knex('ledgers').where({ id }).forUpdate().first();
        await knex('ledgers').where({ id }).update({ cents: row.cents - cents });
      }`),
    ).toEqual([]);
  });

  test('ignored fields and compare-and-set writes give no finding', () => {
    const code = `
      export async function advance(db: Db, id: string) {
        const cursor = await db.cursor.findUnique({ where: { id } });
        await db.cursor.update({ where: { id }, data: { position: cursor.position + 1 } });
        await db.cursor.updateMany({ where: { id, position: cursor.position }, data: { position: cursor.position + 1 } });
      }`;
    expect(findingsIn(code, ['position'])).toEqual([]);
    expect(findingsIn(code).map(summary)).toEqual(['prisma read@3 write@4 position +1']);
  });

  test('a bound check that exits before the write is handed to the codemod', () => {
    const [finding] = findingsIn(`
      export async function spend(db: Db, id: string, cost: number) {
        const budget = await db.budget.findUnique({ where: { id } });
        if (budget.remaining < cost) throw new Error('over budget');
        await db.budget.update({ where: { id }, data: { remaining: budget.remaining - cost } });
      }`);
    expect(finding?.facts.guarded).toBe(true);
    expect(finding?.facts.boundCheck?.loc.start.line).toBe(4);
    expect(finding?.facts.operator).toBe('-');
  });

  test('a parameter of a nested function shadows a tainted name', () => {
    expect(
      findingsIn(`
      export async function relabel(db: Db, id: string) {
        const tag = await db.tag.findUnique({ where: { id } });
        const apply = async (tag: { uses: number }) => db.tag.update({ where: { id }, data: { uses: tag.uses + 1 } });
        return apply({ uses: 0 });
      }`),
    ).toEqual([]);
  });

  test('the element of a tainted array iterated by a callback is tainted', () => {
    const findings = findingsIn(`
      export async function restock(pool: Pool) {
        const { rows } = await pool.query('SELECT id, qty FROM bins WHERE low');
        rows.forEach(async (bin) => {
          await pool.query('UPDATE bins SET qty = $1 WHERE id = $2', [bin.qty + 10, bin.id]);
        });
      }`);
    expect(findings.map(summary)).toEqual(['sql read@3 write@5 qty +10']);
  });
});
