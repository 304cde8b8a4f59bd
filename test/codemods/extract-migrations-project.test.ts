// The project step of `extract-migrations`, end to end through the engine on temp projects: the
// scaffolded migrate entrypoint (content, migrator, module system), the `migrate` script, existing
// files and scripts left alone, the container command as a follow-up, and the scaffold clean
// under `migrate-entrypoint`.
import * as tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { runCodemod } from '../../codemods/index.js';
import { entrypointText, type ScaffoldMigrator } from '../../codemods/transforms/extract-migrations/entrypoint.js';
import { CONTAINER_COMMAND } from '../../codemods/transforms/extract-migrations/index.js';
import { withMigrateScript } from '../../codemods/transforms/extract-migrations/package-json.js';
import plugin from '../../rules/index.js';

const scratch = mkdtempSync(join(tmpdir(), 'extract-migrations-project-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function projectWith(files: Record<string, string>): string {
  const dir = mkdtempSync(join(scratch, 'p-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

function lint(
  file: string,
  text: string,
  rules: 'migrate-entrypoint' | 'recommended',
  sourceType: 'module' | 'commonjs' = 'module',
): Linter.LintMessage[] {
  const linter = new Linter({ configType: 'flat', cwd: dirname(dirname(dirname(file))) });
  const ruleConfig =
    rules === 'recommended'
      ? (plugin.configs.recommended as Linter.Config).rules
      : { 'replica-guard/migrate-entrypoint': 'error' as const };
  return linter.verify(
    text,
    [
      {
        files: ['**/*.{ts,js,cjs,mjs}'],
        plugins: { 'replica-guard': plugin as never },
        rules: ruleConfig,
        languageOptions: { parser: tsParser as unknown as Linter.Parser, ecmaVersion: 'latest', sourceType },
      },
    ],
    { filename: file },
  );
}

const knexServer = [
  "import knex from 'knex';",
  '',
  "const db = knex({ client: 'pg', connection: process.env.DATABASE_URL });",
  '',
  'export async function start(): Promise<void> {',
  "  if (process.env.POSTGRES_RUN_MIGRATIONS === 'true') {",
  '    await db.migrate.latest();',
  '  }',
  '}',
  '',
].join('\n');

const packageJson = `{\n  "name": "@acme/orders",\n  "type": "module",\n  "scripts": {\n    "build": "tsc"\n  },\n  "dependencies": {\n    "knex": "^3.1.0"\n  }\n}\n`;

describe('a TypeScript knex service', () => {
  const dir = projectWith({ 'package.json': packageJson, 'tsconfig.json': '{}', 'src/server.ts': knexServer });
  let report: Awaited<ReturnType<typeof runCodemod>>;

  test('the in-app path is removed and src/cmd/migrate.ts is scaffolded on knexMigrator', async () => {
    report = await runCodemod({ cwd: dir, transforms: ['extract-migrations'], force: true });
    expect(report.errors).toEqual([]);
    expect(readFileSync(join(dir, 'src/server.ts'), 'utf8')).not.toMatch(/migrate\.latest|POSTGRES_RUN_MIGRATIONS/);
    const entrypoint = readFileSync(join(dir, 'src/cmd/migrate.ts'), 'utf8');
    expect(entrypoint).toBe(entrypointText({ migrator: 'knex', lockKey: 'orders', module: 'esm' }));
    expect(entrypoint).toContain("import { runMigrations, knexMigrator } from 'replica-guard';");
    expect(entrypoint).toContain(
      "await runMigrations({\n  lockKey: 'orders',\n  migrate: knexMigrator({ migrations: { directory: 'migrations' } }),\n});",
    );
    expect(report.changes.map((c) => c.file).sort()).toEqual(['package.json', 'src/cmd/migrate.ts', 'src/server.ts']);
  });

  test('package.json gets a migrate script and keeps everything else as written', () => {
    const after = readFileSync(join(dir, 'package.json'), 'utf8');
    expect(JSON.parse(after).scripts).toEqual({ migrate: 'node dist/cmd/migrate.js', build: 'tsc' });
    expect(after.replace(/\n {4}"migrate": "node dist\/cmd\/migrate\.js",/, '')).toBe(packageJson);
  });

  test('the container command is reported as a follow-up', () => {
    expect(report.manual).toContainEqual(
      expect.objectContaining({
        file: 'package.json',
        transform: 'extract-migrations',
        reason: expect.stringContaining(CONTAINER_COMMAND),
      }),
    );
  });

  test('the scaffolded entrypoint is clean under migrate-entrypoint and the recommended config', () => {
    const file = join(dir, 'src/cmd/migrate.ts');
    const text = readFileSync(file, 'utf8');
    expect(lint(file, text, 'migrate-entrypoint')).toEqual([]);
    expect(lint(file, text, 'recommended')).toEqual([]);
  });

  test('a second run changes nothing', async () => {
    const again = await runCodemod({ cwd: dir, transforms: ['extract-migrations'], force: true });
    expect(again.errors).toEqual([]);
    expect(again.filesChanged).toBe(0);
  });
});

test('an existing entrypoint and migrate script are never overwritten', async () => {
  const mine =
    "// ours\nimport { runMigrations, knexMigrator } from 'replica-guard';\n\nawait runMigrations({ lockKey: 'orders', migrate: knexMigrator({}) });\n";
  const pkg = '{\n  "name": "orders",\n  "type": "module",\n  "scripts": { "migrate": "knex migrate:latest" }\n}\n';
  const dir = projectWith({ 'package.json': pkg, 'tsconfig.json': '{}', 'src/server.ts': knexServer, 'src/cmd/migrate.ts': mine });
  const report = await runCodemod({ cwd: dir, transforms: ['extract-migrations'], force: true });
  expect(report.errors).toEqual([]);
  expect(readFileSync(join(dir, 'src/cmd/migrate.ts'), 'utf8')).toBe(mine);
  expect(readFileSync(join(dir, 'package.json'), 'utf8')).toBe(pkg);
  expect(report.changes.map((c) => c.file)).toEqual(['src/server.ts']);
  const reasons = report.manual.map((m) => m.reason).join('\n');
  expect(reasons).toContain('a migrate entrypoint exists and was left as it is');
  expect(reasons).toContain('the existing "migrate" script (knex migrate:latest) was kept');
});

test('a CommonJS JavaScript service gets src/cmd/migrate.js with require and a handled rejection', async () => {
  const server = [
    "const { drizzle } = require('drizzle-orm/node-postgres');",
    "const { migrate } = require('drizzle-orm/node-postgres/migrator');",
    '',
    'const db = drizzle(process.env.DATABASE_URL);',
    'async function start() {',
    "  await migrate(db, { migrationsFolder: 'drizzle' });",
    '}',
    'module.exports = { start };',
    '',
  ].join('\n');
  const dir = projectWith({ 'package.json': '{ "name": "billing" }', 'src/server.js': server });
  const report = await runCodemod({ cwd: dir, transforms: ['extract-migrations'], force: true });
  expect(report.errors).toEqual([]);
  expect(existsSync(join(dir, 'src/cmd/migrate.ts'))).toBe(false);
  const file = join(dir, 'src/cmd/migrate.js');
  const text = readFileSync(file, 'utf8');
  expect(text).toBe(entrypointText({ migrator: 'drizzle', lockKey: 'billing', module: 'cjs' }));
  expect(text).toContain("const { runMigrations, drizzleMigrator } = require('replica-guard');");
  expect(lint(file, text, 'migrate-entrypoint', 'commonjs')).toEqual([]);
  expect(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))).toEqual({
    name: 'billing',
    scripts: { migrate: 'node src/cmd/migrate.js' },
  });
});

test('a dry run reports the scaffold and writes nothing', async () => {
  const dir = projectWith({ 'package.json': packageJson, 'tsconfig.json': '{}', 'src/server.ts': knexServer });
  const report = await runCodemod({ cwd: dir, transforms: ['extract-migrations'], dryRun: true });
  expect(report.changes.find((c) => c.file === 'src/cmd/migrate.ts')?.before).toBe('');
  expect(existsSync(join(dir, 'src/cmd/migrate.ts'))).toBe(false);
  expect(readFileSync(join(dir, 'package.json'), 'utf8')).toBe(packageJson);
});

test('no scaffold when nothing was fixed', async () => {
  const dir = projectWith({ 'package.json': packageJson, 'src/server.ts': 'export const port = 3000;\n' });
  const report = await runCodemod({ cwd: dir, transforms: ['extract-migrations'], force: true });
  expect(report.changes).toEqual([]);
  expect(existsSync(join(dir, 'src/cmd'))).toBe(false);
});

const migrators: ScaffoldMigrator[] = [
  'knex',
  'node-pg-migrate',
  'typeorm',
  'drizzle',
  'kysely',
  'umzug',
  'prisma',
  'postgres-migrations',
  'graphile-migrate',
  'own',
];
test.each(migrators.flatMap((m) => [[m, 'esm'] as const, [m, 'cjs'] as const]))(
  'the %s scaffold (%s) is clean under migrate-entrypoint',
  (migrator, module) => {
    const file = join(scratch, 'svc', 'src', 'cmd', module === 'esm' ? 'migrate.ts' : 'migrate.js');
    const text = entrypointText({ migrator, lockKey: 'svc', module });
    const messages = lint(file, text, 'migrate-entrypoint', module === 'esm' ? 'module' : 'commonjs');
    expect(messages).toEqual([]);
    const call =
      migrator === 'own'
        ? 'migrate: async (client) =>'
        : migrator === 'postgres-migrations'
          ? "migrate({ client }, 'migrations')"
          : migrator === 'graphile-migrate'
            ? 'await migrate({ connectionString: process.env.POSTGRES_MIGRATE_URL })'
            : 'Migrator(';
    expect(text).toContain(call);
  },
);

test('the scaffold follows the library the service uses', async () => {
  const dir = projectWith({
    'package.json': JSON.stringify({ name: 'ledger', type: 'module', dependencies: { typeorm: '0.3.20', pg: '8' } }),
    'tsconfig.json': '{}',
    'src/data-source.ts':
      "import { DataSource } from 'typeorm';\nexport const ds = new DataSource({ type: 'postgres', synchronize: true });\n",
  });
  const report = await runCodemod({ cwd: dir, transforms: ['extract-migrations'], force: true });
  expect(report.errors).toEqual([]);
  expect(readFileSync(join(dir, 'src/data-source.ts'), 'utf8')).toContain('synchronize: false');
  expect(readFileSync(join(dir, 'src/cmd/migrate.ts'), 'utf8')).toBe(
    entrypointText({ migrator: 'typeorm', lockKey: 'ledger', module: 'esm' }),
  );
});

test('the lint check above can fail: an entrypoint on the app URL without a lock is reported', () => {
  const file = join(scratch, 'svc', 'src', 'cmd', 'migrate.ts');
  const bad =
    "import { Pool } from 'pg';\nconst pool = new Pool({ connectionString: process.env.DATABASE_URL });\nawait pool.query('CREATE TABLE t (id int)');\n";
  expect(lint(file, bad, 'migrate-entrypoint').map((m) => m.ruleId)).toContain('replica-guard/migrate-entrypoint');
});

test('with no package.json at or above the run, nothing is scaffolded anywhere and a follow-up says so', async () => {
  const dir = projectWith({ 'src/server.ts': knexServer });
  const report = await runCodemod({ paths: ['.'], cwd: dir, transforms: ['extract-migrations'], force: true });
  expect(report.errors).toEqual([]);
  expect(readFileSync(join(dir, 'src/server.ts'), 'utf8')).not.toContain('db.migrate.latest()');
  expect(existsSync(join(dir, 'src/cmd/migrate.ts'))).toBe(false);
  expect(existsSync('/src/cmd/migrate.ts')).toBe(false);
  expect(JSON.stringify(report)).toContain('no package.json at or above');
});

describe('the migrate script goes into the top-level scripts', () => {
  test('a nested "scripts" object (a tool config) is left alone', () => {
    const text = '{\n  "name": "a",\n  "nx": { "targets": { "scripts": { "x": "y" } } },\n  "scripts": {\n    "build": "tsc"\n  }\n}\n';
    const result = withMigrateScript(text, 'node dist/cmd/migrate.js');
    expect(result.kind).toBe('added');
    const json = JSON.parse((result as { text: string }).text) as {
      scripts: Record<string, string>;
      nx: { targets: { scripts: Record<string, string> } };
    };
    expect(json.scripts).toEqual({ migrate: 'node dist/cmd/migrate.js', build: 'tsc' });
    expect(json.nx.targets.scripts).toEqual({ x: 'y' });
  });

  test('a "scripts" string value or key text elsewhere does not mislead it', () => {
    const text = '{\n  "description": "\\"scripts\\": {",\n  "files": ["scripts"],\n  "scripts": {}\n}\n';
    const result = withMigrateScript(text, 'node cmd/migrate.js');
    const json = JSON.parse((result as { text: string }).text) as { scripts: Record<string, string>; description: string };
    expect(json.scripts).toEqual({ migrate: 'node cmd/migrate.js' });
    expect(json.description).toBe('"scripts": {');
  });

  test('only a nested "scripts": the top-level one is created', () => {
    const text = '{\n  "name": "a",\n  "config": { "scripts": { "x": "y" } }\n}\n';
    const json = JSON.parse((withMigrateScript(text, 'node m.js') as { text: string }).text) as Record<string, Record<string, unknown>>;
    expect(json.scripts).toEqual({ migrate: 'node m.js' });
    expect(json.config).toEqual({ scripts: { x: 'y' } });
  });
});

describe('a CommonJS TypeScript service (no "type": "module")', () => {
  const cjsPackageJson = packageJson.replace('  "type": "module",\n', '');
  const dir = projectWith({
    'package.json': cjsPackageJson,
    'tsconfig.json': '{ "compilerOptions": { "module": "commonjs" } }',
    'src/server.ts': knexServer,
  });

  test('the scaffold has no top-level await (TS1378) and ends the run in a rejection handler', async () => {
    const report = await runCodemod({ cwd: dir, transforms: ['extract-migrations'], force: true });
    expect(report.errors).toEqual([]);
    const entrypoint = readFileSync(join(dir, 'src/cmd/migrate.ts'), 'utf8');
    expect(entrypoint).toBe(entrypointText({ migrator: 'knex', lockKey: 'orders', module: 'ts-cjs' }));
    const program = tsParser.parse(entrypoint, { sourceType: 'module' }) as unknown as {
      body: Array<{ type: string; expression?: { type: string } }>;
    };
    expect(program.body.some((s) => s.type === 'ExpressionStatement' && s.expression?.type === 'AwaitExpression')).toBe(false);
    expect(entrypoint).toContain("import { runMigrations, knexMigrator } from 'replica-guard';");
    expect(entrypoint).toContain('}).catch((error) => {\n  console.error(error);\n  process.exit(1);\n});');
  });

  test.each(migrators)('the %s scaffold (ts-cjs) is clean under migrate-entrypoint', (migrator) => {
    const file = join(scratch, 'svc', 'src', 'cmd', 'migrate.ts');
    expect(lint(file, entrypointText({ migrator, lockKey: 'svc', module: 'ts-cjs' }), 'migrate-entrypoint')).toEqual([]);
  });
});
