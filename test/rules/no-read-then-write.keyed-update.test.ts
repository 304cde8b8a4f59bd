// A project repository's own `update({ id, points: user.points + n })` — the key and the values in
// one object — writes back a value computed from a read like TypeORM's `update(id, { … })` does.
// Not reported: values that come from no read, an object without a key, a second argument.
import { ruleTester } from './rule-tester.js';
import { noReadThenWrite } from '../../rules/no-read-then-write.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noReadThenWrite as unknown as Parameters<typeof ruleTester.run<string, readonly unknown[]>>[1];

const service = (...body: string[]) =>
  lines(
    "import { Injectable } from '@nestjs/common';",
    "import { UserRepository } from './user.repository';",
    '@Injectable()',
    'export class UserService {',
    '  constructor(private readonly users: UserRepository) {}',
    '  async grant(id: number, points: number) {',
    '    const user = await this.users.findOne(id);',
    ...body.map((l) => `    ${l}`),
    '  }',
    '}',
  );
const lost = (line: number, column: number, field = 'points') => ({ messageId: 'typeorm', data: { field }, line, column });

ruleTester.run('no-read-then-write: a repository update keyed in its values', rule, {
  valid: [
    service('await this.users.update({ id, name: user.name.trim() === "" ? "anonymous" : "named" });'),
    service('await this.users.update({ id, points });'),
    service('await this.users.update({ points: user.points + points });'),
    service('await this.users.update({ id: user.id, lastSeen: new Date() });'),
  ],
  invalid: [
    { code: service('await this.users.update({ id, points: user.points + points });'), errors: [lost(8, 22)] },
    { code: service('await this.users.update({ id: user.id, points: user.points - points, active: true });'), errors: [lost(8, 22)] },
    { code: service('const next = user.points + points;', 'await this.users.update({ _id: id, points: next });'), errors: [lost(9, 22)] },
  ],
});
