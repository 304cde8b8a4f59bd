// Module summaries on small projects written to a temp dir: every way a project names a function
// in another file (relative, `.js` for `.ts`, re-exports, CommonJS, tsconfig paths, package
// imports, workspace packages, injected services) resolves to its definition; missing modules,
// cycles, files that do not parse and huge files answer "unknown" without throwing; a module is
// parsed once while it is unchanged.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type { TSESTree } from '@typescript-eslint/utils';
import { ESLint, type Rule } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, describe, expect, test } from 'vitest';
import {
  clearProjectModules,
  clearResolutionCaches,
  defineFunctionFact,
  projectFunctionIn,
  projectFunctionOf,
  projectModuleAt,
  projectModuleCount,
  projectValueOf,
  type ProjectFunction,
} from '../../analysis/modules/index.js';
import type { DetectContext } from '../../analysis/detect-context.js';

const roots: string[] = [];
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

function project(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'rg-modules-'));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  clearResolutionCaches();
  return root;
}

/** "Writes a database": calls `db.insert`/`db.update` itself or through the functions it calls. */
const writesDatabase = defineFunctionFact('writesDatabase', false, (fn, follow): boolean => {
  let writes = false;
  const visit = (node: TSESTree.Node): void => {
    if (writes) return;
    if (node.type === 'CallExpression') {
      const callee = node.callee;
      if (callee.type === 'MemberExpression' && callee.property.type === 'Identifier' && /^(insert|update)$/.test(callee.property.name)) {
        writes = true;
        return;
      }
      const target = follow(callee);
      if (target && writesDatabase(target)) {
        writes = true;
        return;
      }
    }
    for (const key of fn.module.sourceCode.visitorKeys[node.type] ?? []) {
      const child = (node as unknown as Record<string, unknown>)[key];
      for (const item of Array.isArray(child) ? child : [child])
        if (item && typeof item === 'object' && 'type' in item) visit(item as TSESTree.Node);
    }
  };
  visit(fn.fn.body);
  return writes;
});

const describeFunction = (fn: ProjectFunction | undefined): string =>
  fn ? `${fn.className ? `${fn.className}.` : ''}${fn.name}@${basename(fn.module.path)}${writesDatabase(fn) ? ' writes' : ''}` : 'unknown';

/** A rule that reports, for each call marked `/* ? *\/`, what its callee resolves to. */
const probe: Rule.RuleModule = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    const detect = context as unknown as DetectContext;
    return {
      CallExpression(node) {
        const call = node as unknown as TSESTree.CallExpression;
        const marked = context.sourceCode
          .getAllComments()
          .some((c) => c.value.trim() === '?' && c.loc?.start.line === node.loc?.end.line && c.range![0] >= node.range![1]);
        if (!marked) return;
        context.report({ node, message: describeFunction(projectFunctionOf(detect, call.callee)) });
      },
      'Identifier[name="options"]'(node: Rule.Node) {
        const identifier = node as unknown as TSESTree.Identifier;
        if (identifier.parent?.type !== 'NewExpression') return;
        const value = projectValueOf(detect, identifier);
        context.report({ node, message: value ? `${value.node.type}@${basename(value.module.path)}` : 'unknown value' });
      },
    };
  },
};

async function probeMessages(root: string, file: string, parserOptions: Record<string, unknown> = {}): Promise<string[]> {
  const eslint = new ESLint({
    cwd: root,
    overrideConfigFile: true,
    overrideConfig: [
      {
        files: ['**/*.{ts,js,cjs,mjs}'],
        languageOptions: { parser: tseslint.parser as never, sourceType: 'module', parserOptions },
        plugins: { probe: { rules: { probe } } },
        rules: { 'probe/probe': 'error' },
      },
    ],
  });
  const [result] = await eslint.lintFiles([join(root, file)]);
  return result!.messages.map((m) => (m.fatal ? `fatal: ${m.message}` : m.message));
}

describe('module summaries', () => {
  test('relative imports: named, default, namespace, `.js` naming `.ts`, re-exports, aliases', async () => {
    const root = project({
      'src/jobs/sweep.ts': 'export async function sweep() { await db.update(); }\nexport default function nightly() {}\n',
      'src/jobs/index.ts': "export { sweep as sweepAll } from './sweep.js';\nexport * from './more.js';\n",
      'src/jobs/more.ts': 'export const report = async () => { await db.insert(); };\n',
      'src/main.ts': [
        "import nightly, { sweep } from './jobs/sweep.js';",
        "import * as jobs from './jobs/index.js';",
        "import { sweepAll as again } from './jobs';",
        'sweep(); /* ? */',
        'nightly(); /* ? */',
        'jobs.sweepAll(); /* ? */',
        'jobs.report(); /* ? */',
        'again(); /* ? */',
        'const local = () => 1;',
        'local(); /* ? */',
      ].join('\n'),
    });
    expect(await probeMessages(root, 'src/main.ts')).toEqual([
      'sweep@sweep.ts writes',
      'default@sweep.ts',
      'sweep@sweep.ts writes',
      'report@more.ts writes',
      'sweep@sweep.ts writes',
      'local@main.ts',
    ]);
  });

  test('CommonJS: destructured require, module object, exports.x and module.exports = { … }', async () => {
    const root = project({
      'lib/jobs.js': 'async function sweep() { await db.update(); }\nmodule.exports = { sweep, purge: () => db.insert() };\n',
      'lib/more.js': 'exports.report = function report() {};\n',
      'lib/main.js': [
        "const { sweep } = require('./jobs');",
        "const jobs = require('./jobs.js');",
        "const more = require('./more');",
        'sweep(); /* ? */',
        'jobs.purge(); /* ? */',
        'more.report(); /* ? */',
      ].join('\n'),
    });
    expect(await probeMessages(root, 'lib/main.js')).toEqual(['sweep@jobs.js writes', 'purge@jobs.js writes', 'report@more.js']);
  });

  test('tsconfig paths, package.json imports and workspace packages built to dist', async () => {
    const root = project({
      'package.json': JSON.stringify({ name: 'mono', private: true, workspaces: ['packages/*'] }),
      'packages/db/package.json': JSON.stringify({
        name: '@acme/db',
        exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } },
      }),
      'packages/db/src/index.ts': 'export function migrateDb() { return db.update(); }\n',
      'packages/api/package.json': JSON.stringify({ name: '@acme/api', imports: { '#jobs/*': './src/jobs/*.ts' } }),
      'packages/api/tsconfig.json': JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@app/*': ['src/*'] } } }),
      'packages/api/src/services/billing.ts': 'export const charge = () => db.insert();\n',
      'packages/api/src/jobs/sweep.ts': 'export function sweep() {}\n',
      'packages/api/src/main.ts': [
        "import { migrateDb } from '@acme/db';",
        "import { charge } from '@app/services/billing';",
        "import { sweep } from '#jobs/sweep';",
        "import { parse } from 'some-package';",
        'migrateDb(); /* ? */',
        'charge(); /* ? */',
        'sweep(); /* ? */',
        'parse(); /* ? */',
      ].join('\n'),
    });
    expect(await probeMessages(root, 'packages/api/src/main.ts')).toEqual([
      'migrateDb@index.ts writes',
      'charge@billing.ts writes',
      'sweep@sweep.ts',
      'unknown',
    ]);
  });

  test('a tsconfig get-tsconfig refuses keeps its own paths; a malformed package entry field is skipped', async () => {
    const root = project({
      'package.json': JSON.stringify({ name: 'mono', private: true, workspaces: ['packages/*'] }),
      'packages/db/package.json': JSON.stringify({ name: '@acme/db', main: 7 }),
      'packages/db/src/index.ts': 'export function migrateDb() { return db.update(); }\n',
      // A missing base, a malformed entry, comments and trailing commas: TypeScript reports the
      // first two and maps `@app/*`.
      'packages/api/tsconfig.json': `{
  "extends": "./missing-base.json", // not installed
  "compilerOptions": { "baseUrl": ".", "paths": { "@app/*": ["src/*"], "@bad/*": "src/*", }, },
}`,
      'packages/api/src/services/billing.ts': 'export const charge = () => db.insert();\n',
      'packages/api/src/main.ts': [
        "import { migrateDb } from '@acme/db';",
        "import { charge } from '@app/services/billing';",
        "import { bad } from '@bad/services/billing';",
        'migrateDb(); /* ? */',
        'charge(); /* ? */',
        'bad(); /* ? */',
      ].join('\n'),
    });
    expect(await probeMessages(root, 'packages/api/src/main.ts')).toEqual([
      'migrateDb@index.ts writes',
      'charge@billing.ts writes',
      'unknown',
    ]);
  });

  test('injected services: constructor parameter properties, typed fields, `new`, inherited methods, typed parameters', async () => {
    const root = project({
      'src/base.service.ts': 'export class BaseService { protected save() { return this.repo.update(); } }\n',
      'src/billing.service.ts': [
        "import { BaseService } from './base.service';",
        'export class BillingService extends BaseService {',
        '  async chargeOverdue() { await this.save(); }',
        '  ping() { return 1; }',
        '}',
      ].join('\n'),
      'src/billing.cron.ts': [
        "import { Injectable } from '@nestjs/common';",
        "import { BillingService } from './billing.service';",
        '@Injectable()',
        'export class BillingCron {',
        '  private readonly other: BillingService;',
        '  private made = new BillingService();',
        '  constructor(private readonly billing: BillingService) {}',
        '  handle() { return this.billing.chargeOverdue(); /* ? */ }',
        '  ping() { this.other.ping(); /* ? */ this.made.chargeOverdue(); /* ? */ }',
        '  save() { return this.billing.save(); /* ? */ }',
        '}',
        'export function run(service: BillingService) { service.chargeOverdue(); /* ? */ }',
      ].join('\n'),
    });
    expect(await probeMessages(root, 'src/billing.cron.ts')).toEqual([
      'BillingService.chargeOverdue@billing.service.ts writes',
      'BillingService.ping@billing.service.ts',
      'BillingService.chargeOverdue@billing.service.ts writes',
      'BaseService.save@base.service.ts writes',
      'BillingService.chargeOverdue@billing.service.ts writes',
    ]);
  });

  test('an instance made on the spot (`new BillingService(repo).chargeOverdue()`): its class, inherited methods too; an unknown class is not guessed', async () => {
    const root = project({
      'src/base.service.ts': 'export class BaseService { protected save() { return this.repo.update(); } }\n',
      'src/billing.service.ts': [
        "import { BaseService } from './base.service';",
        'export class BillingService extends BaseService {',
        '  constructor(private repo: unknown) { super(); }',
        '  async chargeOverdue() { await this.save(); }',
        '}',
      ].join('\n'),
      'src/billing.job.ts': [
        "import { BillingService } from './billing.service';",
        "import { Remote } from 'remote-billing';",
        'export async function run(repo: unknown) {',
        '  await new BillingService(repo).chargeOverdue(); /* ? */',
        '  await (new BillingService(repo)).save(); /* ? */',
        '  await new Remote(repo).chargeOverdue(); /* ? */',
        '}',
      ].join('\n'),
    });
    expect(await probeMessages(root, 'src/billing.job.ts')).toEqual([
      'BillingService.chargeOverdue@billing.service.ts writes',
      'BaseService.save@base.service.ts writes',
      'unknown',
    ]);
  });

  test('a singleton another module exports (`export default new Tracker()`, `const store = new Store(); export { store }`): its class', async () => {
    const root = project({
      'src/tracker.ts': 'class Tracker {\n  refresh() { db.update(); }\n  list() { return 1; }\n}\nexport default new Tracker();\n',
      'src/store.ts':
        'export class Store { save() { db.insert(); } }\nconst store = new Store();\nexport { store };\nexport const cache = new Map();\n',
      'src/jobs.ts': [
        "import tracker from './tracker';",
        "import { store, cache } from './store';",
        'export function run() {',
        '  tracker.refresh(); /* ? */',
        '  tracker.list(); /* ? */',
        '  store.save(); /* ? */',
        '  cache.get(1); /* ? */',
        '}',
      ].join('\n'),
    });
    expect(await probeMessages(root, 'src/jobs.ts')).toEqual([
      'Tracker.refresh@tracker.ts writes',
      'Tracker.list@tracker.ts',
      'Store.save@store.ts writes',
      // A `new` of a class the project does not declare is not followed.
      'unknown',
    ]);
  });

  test('with type information, the checker names a receiver no annotation names', async () => {
    const root = project({
      'tsconfig.json': JSON.stringify({
        compilerOptions: { strict: true, target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler' },
        include: ['src'],
      }),
      'src/container.ts': 'export function get<T>(type: new () => T): T { return new type(); }\n',
      'src/billing.service.ts': 'export class BillingService { chargeOverdue() { return db.update(); } }\n',
      'src/main.ts': [
        "import { get } from './container';",
        "import { BillingService } from './billing.service';",
        'const billing = get(BillingService);',
        'billing.chargeOverdue(); /* ? */',
      ].join('\n'),
    });
    expect(await probeMessages(root, 'src/main.ts')).toEqual(['unknown']);
    expect(await probeMessages(root, 'src/main.ts', { projectService: true, tsconfigRootDir: root })).toEqual([
      'BillingService.chargeOverdue@billing.service.ts writes',
    ]);
  });

  test('typed option objects imported from another module', async () => {
    const root = project({
      'src/options.ts':
        "import type { DataSourceOptions } from 'typeorm';\nexport const options: DataSourceOptions = { type: 'postgres', synchronize: true };\n",
      'src/data-source.ts':
        "import { DataSource } from 'typeorm';\nimport { options } from './options';\nexport const ds = new DataSource(options);\n",
    });
    expect(await probeMessages(root, 'src/data-source.ts')).toEqual(['ObjectExpression@options.ts']);
  });

  test('missing modules, import cycles, files that do not parse and huge files answer unknown, never throw', async () => {
    const big = `export function huge() { return db.update(); }\n${'export const x = 1;\n'.repeat(80_000)}`;
    const root = project({
      'src/a.ts': "import { b } from './b';\nexport function a(): unknown { return b(); }\n",
      'src/b.ts': "import { a } from './a';\nexport function b(): unknown { return a(); }\n",
      'src/broken.ts': 'export function broken( {\n',
      'src/huge.ts': big,
      'src/main.ts': [
        "import { a } from './a';",
        "import { gone } from './missing';",
        "import { broken } from './broken';",
        "import { huge } from './huge';",
        'a(); /* ? */',
        'gone(); /* ? */',
        'broken(); /* ? */',
        'huge(); /* ? */',
      ].join('\n'),
    });
    expect(await probeMessages(root, 'src/main.ts')).toEqual(['a@a.ts', 'unknown', 'unknown', 'unknown']);
  });

  test('facts follow calls a bounded number of levels deep', async () => {
    const root = project({
      'src/chain.ts': [
        'export function l1() { l2(); }',
        'function l2() { l3(); }',
        'function l3() { l4(); }',
        'function l4() { l5(); }',
        'function l5() { db.update(); }',
        'export function m1() { m2(); }',
        'function m2() { m3(); }',
        'function m3() { db.update(); }',
      ].join('\n'),
      'src/main.ts': "import { l1, m1 } from './chain';\nl1(); /* ? */\nm1(); /* ? */\n",
    });
    expect(await probeMessages(root, 'src/main.ts')).toEqual(['l1@chain.ts', 'm1@chain.ts writes']);
  });

  test('a module is parsed once while unchanged, and again after it changes', async () => {
    clearProjectModules();
    const root = project({
      'src/jobs.ts': 'export function sweep() {}\n',
      'src/main.ts': "import { sweep } from './jobs';\nsweep(); /* ? */\n",
    });
    expect(await probeMessages(root, 'src/main.ts')).toEqual(['sweep@jobs.ts']);
    const from = { languageOptions: { parser: tseslint.parser }, sourceCode: { visitorKeys: {} } } as unknown as DetectContext;
    const first = projectModuleAt(join(root, 'src/jobs.ts'), from);
    expect(await probeMessages(root, 'src/main.ts')).toEqual(['sweep@jobs.ts']);
    expect(projectModuleAt(join(root, 'src/jobs.ts'), from)).toBe(first);
    writeFileSync(join(root, 'src/jobs.ts'), 'export function sweep() { db.insert(); }\n');
    utimesSync(join(root, 'src/jobs.ts'), new Date(), new Date(Date.now() + 5000));
    // Looked at once per linted file: the rest of the last lint's questions get what it saw.
    expect(projectModuleAt(join(root, 'src/jobs.ts'), from)).toBe(first);
    expect(await probeMessages(root, 'src/main.ts')).toEqual(['sweep@jobs.ts writes']);
    expect(projectModuleAt(join(root, 'src/jobs.ts'), from)).not.toBe(first);
  });

  test('a barrel: `export *` targets are parsed only when their text spells the name or re-exports in turn', async () => {
    clearProjectModules();
    const root = project({
      'src/jobs/index.ts': "export * from './billing';\nexport * from './mail';\nexport * from './nested';\n",
      'src/jobs/billing.ts': 'export function chargeOverdue() { db.update(); }\n',
      'src/jobs/mail.ts': 'export function sendDigest() {}\n',
      'src/jobs/nested/index.ts': "export * from './reports';\n",
      'src/jobs/nested/reports.ts': 'export async function rollUp() { await db.insert(); }\n',
      'src/main.ts': "import { chargeOverdue, rollUp } from './jobs';\nchargeOverdue(); /* ? */\nrollUp(); /* ? */\n",
    });
    expect(await probeMessages(root, 'src/main.ts')).toEqual(['chargeOverdue@billing.ts writes', 'rollUp@reports.ts writes']);
    // The barrel, billing, the nested barrel and reports (main is the linted file); mail spells neither name nor `export *`.
    expect(projectModuleCount()).toBe(4);
  });

  test('projectFunctionIn resolves inside the module a function lives in', async () => {
    const root = project({
      'src/inner.ts': 'export function deep() { db.insert(); }\n',
      'src/outer.ts': "import { deep } from './inner';\nexport function outer() { deep(); }\n",
      'src/main.ts': "import { outer } from './outer';\nouter(); /* ? */\n",
    });
    const found: string[] = [];
    const nested = defineFunctionFact('calls', [] as string[], (fn) => {
      const body = fn.fn.body as TSESTree.BlockStatement;
      const call = (body.body[0] as TSESTree.ExpressionStatement).expression as TSESTree.CallExpression;
      found.push(describeFunction(projectFunctionIn(fn, call.callee)));
      return found;
    });
    expect(await probeMessages(root, 'src/main.ts')).toEqual(['outer@outer.ts writes']);
    const from = { languageOptions: { parser: tseslint.parser }, sourceCode: { visitorKeys: {} } } as unknown as DetectContext;
    const outer = projectModuleAt(join(root, 'src/outer.ts'), from)!;
    const fn = outer.sourceCode.ast.body[1] as TSESTree.ExportNamedDeclaration;
    nested({ fn: fn.declaration as TSESTree.FunctionDeclaration, module: outer, name: 'outer' });
    expect(found).toEqual(['deep@inner.ts writes']);
  });
});
