// Prisma's schema commands spawned with the binary in a variable or a path expression. The
// program is told by what the file gives its variable (a path join ending in Prisma's binary, a
// fallback assignment, a function of the file that returns it, `require.resolve` of Prisma's
// CLI); a program the file does not spell out counts only when the arguments can only be Prisma's
// (`migrate deploy|dev|reset`). `prisma db execute` is a schema write when the same function spawns
// `prisma migrate diff` (the diff-then-apply shape); alone it runs any SQL (a seed).
// Below: migrators' own CLI commands spawned from app code: `npx sequelize db:migrate`, `knex migrate:latest`,
// `typeorm migration:run`, through child_process or what `promisify` makes of `exec`. Every replica
// that starts runs the command at once, as it would run Prisma's `migrate deploy`. Commands that list,
// create or undo migrations, and other programs, are not schema writes.
import { ruleTester } from './rule-tester.js';
import { noInAppMigrations, type NoInAppMigrationsMessageIds } from '../../rules/no-in-app-migrations.js';

const lines = (...l: string[]) => l.join('\n');
const rule = noInAppMigrations as unknown as Parameters<typeof ruleTester.run<NoInAppMigrationsMessageIds, readonly unknown[]>>[1];
const command = (line: number, column: number, spawned: string) => ({
  messageId: 'schemaWriteCommand' as const,
  line,
  column,
  data: { command: spawned },
});
const CHILD = "import { execSync, spawn, spawnSync, execFileSync } from 'node:child_process';";
const PATH = "import { join } from 'node:path';";
const CLIENT = "import { PrismaClient } from '@prisma/client';";

ruleTester.run('no-in-app-migrations (spawned binaries)', rule, {
  valid: [
    // The program is known and is not Prisma's: `pnpm migrate deploy` runs a package script.
    lines(CHILD, CLIENT, "const pm = 'pnpm';", 'execSync(`${pm} migrate deploy`);'),
    // Unknown program, arguments another CLI has too (Supabase's `db push`).
    lines(CHILD, "const schema = 'prisma/schema.prisma';", "export const push = (cli: string) => spawn(cli, ['db', 'push', schema]);"),
    // Unknown program not in the program's place.
    lines(CHILD, CLIENT, 'export const run = (tool: string) => execSync(`npx ${tool} migrate deploy`);'),
    // `db execute` without a diff in the same function runs a seed file.
    lines(CHILD, PATH, "const cli = join('node_modules', '.bin', 'prisma');", 'execSync(`${cli} db execute --file seed.sql`);'),
    // `migrate diff` alone prints SQL, and an apply in another function is not the same run.
    lines(
      CHILD,
      PATH,
      "const cli = join('node_modules', '.bin', 'prisma');",
      'export const drift = () => execSync(`${cli} migrate diff --from-url "$URL" --to-schema-datamodel schema.prisma`);',
      'export const seed = () => execSync(`${cli} db execute --file seed.sql`);',
    ),
    // Prisma's binary, a subcommand that writes nothing.
    lines(CHILD, PATH, "const cli = join('node_modules', '.bin', 'prisma');", "spawnSync(cli, ['generate']);"),
    // The argument list is a parameter: the arguments are not known.
    lines(CHILD, PATH, "const cli = join('node_modules', '.bin', 'prisma');", 'export const run = (args: string[]) => spawn(cli, args);'),
    // A script someone starts (`node scripts/sync-schema.js`): its body runs only as its own process.
    lines(CHILD, 'if (require.main === module) {', "  execSync('npx prisma migrate deploy');", '}'),
    // …which reads the server's settings without starting it (`serverSettings.create()` names no server class).
    lines(
      CHILD,
      "import { serverSettings } from './settings';",
      'if (require.main === module) {',
      '  const settings = serverSettings.create();',
      "  execSync('npx prisma migrate deploy', { env: settings.env });",
      '}',
    ),
    // A subcommand chosen between words that write nothing.
    lines(CHILD, "const mode = process.env.CHECK_ONLY ? 'status' : 'resolve';", "spawnSync('prisma', ['migrate', mode]);"),
  ],
  invalid: [
    // A subcommand chosen where the file spells the choices out: the deploy branch writes schema.
    {
      code: lines(CHILD, "const mode = process.env.CHECK_ONLY ? 'status' : 'deploy';", "spawnSync('prisma', ['migrate', mode]);"),
      errors: [command(3, 1, 'prisma migrate deploy')],
    },
    {
      code: lines(CHILD, "export const boot = () => spawnSync('npx', ['prisma', 'migrate', process.env.PRISMA_MODE || 'deploy']);"),
      errors: [command(2, 27, 'prisma migrate deploy')],
    },
    {
      // …unless the file starts a server itself.
      code: lines(
        CHILD,
        "import { createServer } from 'node:http';",
        'if (module === require.main) {',
        "  execSync('npx prisma migrate deploy');",
        '  createServer().listen(3000);',
        '}',
      ),
      errors: [command(4, 3, 'prisma migrate deploy')],
    },
    {
      // …or starts it through a class of the project named for a server, which listens elsewhere.
      code: lines(
        CHILD,
        "import { MergedServer } from './merged-server';",
        'async function main() {',
        "  execSync('npx prisma migrate deploy');",
        '  const server = await MergedServer.create(8484);',
        '  await server.run();',
        '}',
        'if (require.main === module) main();',
      ),
      errors: [command(4, 3, 'prisma migrate deploy')],
    },
    {
      code: lines(
        CHILD,
        "import { startApiServer } from './api';",
        'if (require.main === module) {',
        "  execSync('npx prisma migrate deploy');",
        '  void startApiServer();',
        '}',
      ),
      errors: [command(4, 3, 'prisma migrate deploy')],
    },
    {
      code: lines(CHILD, PATH, "const bin = join(process.cwd(), 'node_modules', '.bin', 'prisma');", 'execSync(`${bin} migrate deploy`);'),
      errors: [command(4, 1, 'prisma migrate deploy')],
    },
    {
      code: lines(
        CHILD,
        PATH,
        'export function boot(root: string) {',
        "  let prismaBin = join(root, 'node_modules/.bin/tool');",
        "  if (!prismaBin) prismaBin = join(root, '.bin', 'prisma');",
        "  spawn(prismaBin, ['migrate', 'deploy'], { stdio: 'inherit' });",
        '}',
      ),
      errors: [command(6, 3, 'prisma migrate deploy')],
    },
    {
      // A function of the file returns the path; the command line sits in a const.
      code: lines(
        CHILD,
        PATH,
        "const findCli = () => join(__dirname, '..', 'node_modules', '.bin', 'prisma');",
        'const line = `${findCli()} db push --skip-generate`;',
        'execSync(line);',
      ),
      errors: [command(5, 1, 'prisma db push')],
    },
    {
      // Node runs Prisma's CLI script.
      code: lines(
        CHILD,
        "const cli = require.resolve('prisma/build/index.js');",
        "execFileSync(process.execPath, [cli, 'migrate', 'reset', '--force']);",
      ),
      errors: [command(3, 1, 'prisma migrate reset')],
    },
    {
      code: lines(CHILD, "const bin = process.env.PRISMA_BIN ?? 'prisma';", 'execSync(bin + " migrate deploy");'),
      errors: [command(3, 1, 'prisma migrate deploy')],
    },
    {
      // The program is not known in the file, the arguments can only be Prisma's.
      code: lines(CHILD, CLIENT, "export const applySchema = (cli: string) => spawnSync(cli, ['migrate', 'deploy']);"),
      errors: [command(3, 45, 'cli migrate deploy')],
    },
    {
      code: lines(CHILD, CLIENT, 'export const applySchema = () => execSync(`${process.env.PRISMA} migrate dev --name boot`);'),
      errors: [command(3, 34, 'process.env.PRISMA migrate dev')],
    },
    {
      // Diff-then-apply: the DDL Prisma prints, run at once.
      code: lines(
        CHILD,
        PATH,
        'export function syncSchema(url: string) {',
        "  const cli = join(process.cwd(), 'node_modules', '.bin', 'prisma');",
        '  const sql = execSync(`${cli} migrate diff --from-url ${url} --to-schema-datamodel schema.prisma --script`);',
        '  execSync(`${cli} db execute --stdin --url ${url}`, { input: sql });',
        '}',
      ),
      errors: [command(6, 3, 'prisma migrate diff | prisma db execute')],
    },
  ],
});

const SPAWNERS = "import { exec, execSync, spawnSync } from 'node:child_process';";
const UTIL = "import { promisify } from 'node:util';";

ruleTester.run('no-in-app-migrations (migrator CLI commands)', rule, {
  valid: [
    // Commands that list, create or undo migrations.
    lines(SPAWNERS, "export const status = () => execSync('npx sequelize db:migrate:status');"),
    lines(SPAWNERS, 'export const make = (name: string) => execSync(`npx knex migrate:make ${name}`);'),
    // A promisified `exec` running something else.
    lines(SPAWNERS, UTIL, 'const run = promisify(exec);', "export async function build() { await run('npm run build'); }"),
    // A migrator's command in a string no process is given.
    lines(SPAWNERS, "export const HINT = 'run npx sequelize db:migrate before starting';", 'execSync(`echo ${HINT}`);'),
    // `promisify` of something that spawns nothing.
    lines(
      UTIL,
      "import { readFile } from 'node:fs';",
      'const read = promisify(readFile);',
      "export const load = () => read('npx sequelize db:migrate');",
    ),
  ],
  invalid: [
    {
      code: lines(
        SPAWNERS,
        UTIL,
        'const execAsync = promisify(exec);',
        'export async function waitForDatabase() {',
        "  if (process.env.NODE_ENV === 'production') {",
        "    const { stdout } = await execAsync('npm run copy-files && npx sequelize db:migrate');",
        '    console.log(stdout);',
        '  }',
        '}',
      ),
      errors: [command(6, 30, 'sequelize db:migrate')],
    },
    {
      code: lines(SPAWNERS, "execSync('npx knex --knexfile ./knexfile.js migrate:latest', { stdio: 'inherit' });"),
      errors: [command(2, 1, 'knex --knexfile ./knexfile.js migrate:latest')],
    },
    {
      code: lines(SPAWNERS, "export const boot = () => spawnSync('npx', ['typeorm', 'migration:run', '-d', 'dist/data-source.js']);"),
      errors: [command(2, 27, 'typeorm migration:run')],
    },
  ],
});
