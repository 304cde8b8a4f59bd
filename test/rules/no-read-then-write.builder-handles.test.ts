// A knex builder started through a handle (`this.knex('members')`, `this.#db('members')`) names
// its table just as `knex('members')` does: a value read from one table and written into another
// (a stat recomputed from counts of other rows) is not written back, while the same table read and
// written through the handle still is.
import { jsRuleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');

/** A class holding its knex in `field`; `body` is the method's. */
const service = (field: string, ...body: string[]) =>
  lines(
    "const knex = require('knex');",
    'class MemberStats {',
    `  ${field.startsWith('#') ? `${field};` : ''}`,
    `  constructor(db) { this.${field} = db; }`,
    '  async refresh(memberId) {',
    ...body.map((l) => `    ${l}`),
    '  }',
    '}',
    'module.exports = { MemberStats };',
  );

jsRuleTester.run('no-read-then-write (builders started through a handle)', noReadThenWrite, {
  valid: [
    // counted from one table, the rate stored in another
    {
      code: service(
        'knex',
        "const { opened } = await this.knex('email_recipients').where({ member_id: memberId }).count('id as opened').first();",
        "await this.knex('members').update({ open_rate: opened * 2 }).where('id', memberId);",
      ),
    },
    // the same through a private field, the write's filter first
    {
      code: service(
        '#db',
        "const row = (await this.#db('email_recipients').select(this.#db.raw('COUNT(id) as tracked')).where('member_id', memberId).first()) || {};",
        "await this.#db('members').where('id', memberId).update({ tracked_count: row.tracked + 0 });",
      ),
    },
  ],
  invalid: [
    // the same table read and written back through the handle
    {
      code: service(
        'knex',
        "const member = await this.knex('members').where({ id: memberId }).first();",
        "await this.knex('members').update({ visits: member.visits + 1 }).where('id', memberId);",
      ),
      errors: [{ messageId: 'knex', line: 7, column: 32 }],
    },
    {
      code: service(
        '#db',
        "const member = await this.#db('members').where({ id: memberId }).first();",
        "await this.#db('members').where('id', memberId).update({ visits: member.visits + 1 });",
      ),
      errors: [{ messageId: 'knex', line: 7, column: 53 }],
    },
  ],
});
