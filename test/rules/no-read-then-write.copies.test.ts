// A copy of a loaded row with a field changed from the row, saved or updated whole: the copy
// writes the row back, so it loses a concurrent update like `row.count++; save(row)`. A spread
// (`{ ...row, count: row.count + 1 }`), `Object.assign({}, row, { … })`, a class built from the
// copy or from the row's key and a computed value, a TypeORM entity made from it
// (`repo.create({ … })`). Not a copy whose changed field is not computed from the row (a rename,
// a timestamp), one computed from another row, one never written, a class built without the
// row's key (a new row), or an awaited `create` (an insert).
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';
import type { DataLibrary } from '../../src/knowledge/orm-reads-writes.js';

const lines = (...l: string[]) => l.join('\n');

const PRISMA = "import { PrismaClient } from '@prisma/client';\nconst prisma = new PrismaClient();";
const TYPEORM = "import { Repository } from 'typeorm';";
const MONGOOSE = "import mongoose from 'mongoose';";
const SEQUELIZE = "import { Model } from 'sequelize';";

/** A TypeORM service method loading `plan` by id, then `body`. */
const onPlan = (...body: string[]) =>
  lines(
    TYPEORM,
    'class Plan { constructor(public id: string, public seats: number) {} }',
    'export class PlanService {',
    '  constructor(private readonly plans: Repository<Plan>) {}',
    '  async change(id: string, seats: number) {',
    '    const plan = await this.plans.findOneBy({ id });',
    ...body.map((l) => `    ${l}`),
    '  }',
    '}',
  );

const errorAt = (messageId: DataLibrary, field: string, line: number, column: number) => [{ messageId, data: { field }, line, column }];

ruleTester.run('no-read-then-write (copies of a loaded row)', noReadThenWrite, {
  valid: [
    // a field set to a value the request gave
    onPlan('const next = { ...plan, name: "team" };', 'await this.plans.save(next);'),
    // a timestamp, not derived from the row
    onPlan('await this.plans.save(Object.assign({}, plan, { renewedAt: new Date() }));'),
    // the copy is returned, never written
    onPlan('const view = { ...plan, seatsLeft: plan.seats - 1 };', 'return view;'),
    // a class built from the row without its key: a new row
    lines(
      TYPEORM,
      'class Snapshot { constructor(public seats: number) {} }',
      'export async function snapshot(plans, snapshots, id: string) {',
      '  const plan = await plans.findOneBy({ id });',
      '  await snapshots.save(new Snapshot(plan.seats - 1));',
      '}',
    ),
    // a class built from the row's key and values it did not change
    onPlan('const next = new Plan(plan.id, plan.seats);', 'await this.plans.save(next);'),
    // the changed value comes from another loaded row
    lines(
      TYPEORM,
      'export async function copySeats(plans, id: string, fromId: string) {',
      '  const target = await plans.findOneBy({ id });',
      '  const source = await plans.findOneBy({ id: fromId });',
      '  const next = { ...target, seats: source.seats - 1 };',
      '  await plans.save(next);',
      '}',
    ),
    // an awaited create inserts a new document (a version kept beside the old one)
    lines(
      MONGOOSE,
      'export async function revise(Doc, id: string) {',
      '  const doc = await Doc.findById(id).lean();',
      '  await Doc.create({ ...doc, _id: undefined, revision: doc.revision + 1 });',
      '}',
    ),
  ],
  invalid: [
    // a spread copy kept in a name and saved
    {
      code: onPlan('const next = { ...plan, seats: plan.seats - seats };', 'await this.plans.save(next);'),
      errors: errorAt('typeorm', 'seats', 8, 22),
    },
    // spread into a fresh object by Object.assign, saved
    {
      code: onPlan('const next = Object.assign({}, plan, { seats: plan.seats + seats });', 'await this.plans.save(next);'),
      errors: errorAt('typeorm', 'seats', 8, 22),
    },
    // Object.assign inline, sent by an update
    {
      code: onPlan('await this.plans.update(id, Object.assign({}, plan, { seats: plan.seats + seats }));'),
      errors: errorAt('typeorm', 'seats', 7, 22),
    },
    // a class built from the row's key and a value computed from the row
    {
      code: onPlan('await this.plans.save(new Plan(plan.id, plan.seats - seats));'),
      errors: errorAt('typeorm', 'seats', 7, 22),
    },
    // a class built from a spread copy
    {
      code: onPlan('const next = new PlanRecord({ ...plan, seats: plan.seats - seats });', 'await this.plans.save(next);'),
      errors: errorAt('typeorm', 'seats', 8, 22),
    },
    // a TypeORM entity made from the copy (not awaited), then saved
    {
      code: onPlan('const next = this.plans.create({ ...plan, seats: plan.seats - seats });', 'await this.plans.save(next);'),
      errors: errorAt('typeorm', 'seats', 8, 22),
    },
    // the copy changed after it was made
    {
      code: onPlan('const next = { ...plan };', 'next.seats -= seats;', 'await this.plans.save(next);'),
      errors: errorAt('typeorm', 'seats', 9, 22),
    },
    // Prisma: the copy's field as `data`
    {
      code: lines(
        PRISMA,
        'export async function bump(id: string) {',
        '  const counter = await prisma.counter.findUnique({ where: { id } });',
        '  const { id: _, ...rest } = { ...counter, value: counter.value + 1 };',
        '  await prisma.counter.update({ where: { id }, data: rest });',
        '}',
      ),
      errors: errorAt('prisma', 'value', 6, 24),
    },
    // Mongoose: a lean document copied and `$set` whole
    {
      code: lines(
        MONGOOSE,
        'export async function charge(Account, id: string, amount: number) {',
        '  const account = await Account.findById(id).lean();',
        '  const next = Object.assign({}, account, { balance: account.balance - amount });',
        '  await Account.updateOne({ _id: id }, { $set: next });',
        '}',
      ),
      errors: errorAt('mongoose', 'balance', 5, 17),
    },
    // Sequelize: the copy sent by a static update
    {
      code: lines(
        SEQUELIZE,
        'export async function hit(Counter, id: string) {',
        '  const counter = await Counter.findByPk(id);',
        '  const next = { ...counter.toJSON(), hits: counter.hits + 1 };',
        '  await Counter.update(next, { where: { id } });',
        '}',
      ),
      errors: errorAt('sequelize', 'hits', 5, 17),
    },
  ],
});
