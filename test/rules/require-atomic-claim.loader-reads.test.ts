// require-atomic-claim when a running flag is checked on a row loaded one call away — a method (or
// function) of the same file named for loading one row, whose return is the library's one-row read
// (`return this.db('jobs').where('name', name).first()`) — and then set in a second statement.
// Not reported: a loader that builds or merges the row (not only a read), a loader whose read
// locks the row, a flag only cleared, a helper not named for loading.
import { ruleTester } from './rule-tester.js';
import { requireAtomicClaim } from '../../rules/require-atomic-claim.js';

const lines = (...l: string[]) => l.join('\n');
const rule = requireAtomicClaim as unknown as Parameters<typeof ruleTester.run<string, readonly unknown[]>>[1];

/** A job-state model: `loader` is the one-row loader's body, `check` / `set` the run's guard and its claim (the set on line 13). */
const jobStates = (
  loader: string,
  check = "if (state.running) throw new Error('busy');",
  set = 'await this.save({ id: state.id, running: 1 });',
) =>
  lines(
    "import knex from 'knex';",
    'export default class JobStateModel {',
    "  private db = knex({ client: 'pg' });",
    '  public async loadByName(name: string) {',
    `    ${loader}`,
    '  }',
    '  public async save(state: object) {',
    "    return this.db('job_states').insert(state).onConflict('id').merge();",
    '  }',
    '  public async start(name: string) {',
    '    const state = await this.loadByName(name);',
    `    ${check}`,
    `    ${set}`,
    '  }',
    '}',
  );

const READ = "return this.db('job_states').where('name', '=', name).first();";

/** A function of the file that loads one sync row by its key, then the run guarded by its flag (the set on line 9). */
const syncs = (name: string) =>
  lines(
    "import { PrismaClient } from '@prisma/client';",
    'const prisma = new PrismaClient();',
    `async function ${name}(id: string) {`,
    '  return prisma.sync.findUnique({ where: { id } });',
    '}',
    'export async function runSync(id: string) {',
    `  const sync = await ${name}(id);`,
    '  if (sync.isRunning) return;',
    '  await prisma.sync.update({ where: { id }, data: { isRunning: true } });',
    '}',
  );

ruleTester.run('require-atomic-claim (a running flag on a row loaded one call away)', rule, {
  valid: [
    // The loader merges the row with defaults: not only a read.
    jobStates("const row = await this.db('job_states').where('name', '=', name).first();\n    return { running: 0, ...row };"),
    // The loader's read locks the row.
    jobStates("return this.db('job_states').where('name', '=', name).forUpdate().first();"),
    // The flag only cleared after the check.
    jobStates(READ, 'if (!state.running) return;', 'await this.save({ id: state.id, running: 0 });'),
    // A helper not named for loading one row.
    syncs('prepareSync'),
  ],
  invalid: [
    { code: jobStates(READ), errors: [{ messageId: 'checkedFlagClaim', data: { column: 'running' }, line: 13, column: 16 }] },
    {
      code: jobStates(`return await this.db('job_states').where({ name }).first();`, 'if (state.running === 1) return;'),
      errors: [{ messageId: 'checkedFlagClaim', data: { column: 'running' }, line: 13, column: 16 }],
    },
    { code: syncs('loadById'), errors: [{ messageId: 'checkedFlagClaim', data: { column: 'isRunning' }, line: 9, column: 21 }] },
    { code: syncs('findOneSync'), errors: [{ messageId: 'checkedFlagClaim', data: { column: 'isRunning' }, line: 9, column: 21 }] },
  ],
});
