// `extract-migrations`: for each finding of `no-in-app-migrations`, take the in-app migration path
// out — `synchronize` becomes `false`, `migrationsRun` goes, migrator calls (`runMigrations()`,
// `sync()`, `migrate.latest()`, `migrate()`, `prisma migrate deploy`) go with the imports only they
// used, and so does the `POSTGRES_RUN_MIGRATIONS` branch around them. Then, once per project,
// scaffold the migrate entrypoint on `runMigrations` with the library's ready-made migrator and a
// `migrate` script, and say which container command to adopt. What cannot go safely (the call's
// result is used, the flag is read elsewhere) gets a manual marker.
import { chainRoot } from '../../../analysis/ast/chain-root.js';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TSESTree } from '@typescript-eslint/utils';
import type { Finding } from '../../../rules/utils/create-rule.js';
import { noInAppMigrations, type NoInAppMigrationsFacts } from '../../../rules/no-in-app-migrations.js';
import { importThatBecomesUnused } from '../../../rules/migrations/removal.js';
import { SCHEMA_UPDATER_WORDS, UPDATE_STEP_FOLDER_WORDS } from '../../../src/knowledge/migration-runs.js';
import { matchesAny, DEFAULT_MIGRATE_ENTRYPOINTS } from '../../../analysis/settings.js';
import {
  DEFAULT_MIGRATION_FLAGS,
  MIGRATION_RUNNER_WORDS,
  PROCESS_SPAWNERS,
  SCHEMA_OPTIONS_APIS,
  SCHEMA_WRITE_FUNCTIONS,
  SCHEMA_WRITE_METHODS,
} from '../../../src/knowledge/migrators.js';
import { NOT_SQL_MIGRATORS } from '../../../src/knowledge/migrator-locks.js';
import { contains, removalEdit, withoutAwait } from '../../engine/statements.js';
import { baselineFollowUps, removedSchemaPaths } from './baseline.js';
import { entrypointText, migrateScript, migratorFor } from './entrypoint.js';
import { withMigrateScript } from './package-json.js';
import { bindingRemovalEdits, propertyRemovalEdit } from './removals.js';
import { packageInfoFor } from '../../engine/package-info.js';
import type {
  ManualNote,
  ProjectOutput,
  ProjectView,
  SourceFileInfo,
  TextEdit,
  Transform,
  TransformOutput,
} from '../../engine/transform.js';

type Facts = NoInAppMigrationsFacts;
type CallFacts = Extract<Facts, { kind: 'call' | 'command' }>;

/** Where the scaffolded entrypoint goes, relative to the package root. */
export const ENTRYPOINT_PATH = { typescript: 'src/cmd/migrate.ts', javascript: 'src/cmd/migrate.js' } as const;
/** The container command every pod should run (docs/migrations.md, "The container"). */
export const CONTAINER_COMMAND = 'CMD ["sh", "-c", "node dist/cmd/migrate.js && exec node dist/server.js"]';

const LOG_ROOTS = new Set(['console', 'logger', 'log']);

/** `console.log('migrating…')`: a statement that only logs, fine to drop with the branch it is in. */
function isLogStatement(statement: TSESTree.Statement): boolean {
  if (statement.type !== 'ExpressionStatement') return false;
  const call = withoutAwait(statement.expression);
  if (call.type !== 'CallExpression') return false;
  const root = chainRoot(call.callee);
  return root !== undefined && LOG_ROOTS.has(root.name);
}

/** The statement holding a call can be removed without breaking its parent (`if (x) migrate();` cannot). */
function standsAlone(statement: TSESTree.Node): boolean {
  const parent = statement.parent;
  return parent?.type === 'BlockStatement' || parent?.type === 'Program' || parent?.type === 'SwitchCase' || parent?.type === 'StaticBlock';
}

/** The `if` whose test reads the flag, when the branch is only schema writes and logging. */
function flagBranch(read: TSESTree.Node, removable: ReadonlySet<TSESTree.Node>): TSESTree.IfStatement | undefined {
  let node: TSESTree.Node | undefined = read;
  while (node?.parent && node.parent.type !== 'IfStatement' && /Expression$|^Literal$/.test(node.parent.type)) node = node.parent;
  const branch = node?.parent;
  if (branch?.type !== 'IfStatement' || branch.test !== node || branch.alternate) return undefined;
  const statements = branch.consequent.type === 'BlockStatement' ? branch.consequent.body : [branch.consequent];
  if (!statements.some((s) => removable.has(s))) return undefined;
  return statements.every((s) => removable.has(s) || isLogStatement(s)) && standsAlone(branch) ? branch : undefined;
}

/**
 * `const shouldMigrate = process.env.POSTGRES_RUN_MIGRATIONS === 'true'` read only by `if`s that
 * qualify as flag branches: the declaration and those branches go together.
 */
function flagConstant(
  read: TSESTree.Node,
  removable: ReadonlySet<TSESTree.Node>,
  file: SourceFileInfo,
): { declaration: TSESTree.VariableDeclaration; branches: TSESTree.IfStatement[] } | undefined {
  let node: TSESTree.Node = read;
  while (node.parent && /Expression$/.test(node.parent.type) && node.parent.type !== 'CallExpression') node = node.parent;
  const declarator = node.parent;
  const declaration = declarator?.parent;
  if (declarator?.type !== 'VariableDeclarator' || declarator.init !== node || declarator.id.type !== 'Identifier') return undefined;
  if (
    declaration?.type !== 'VariableDeclaration' ||
    declaration.kind !== 'const' ||
    declaration.declarations.length !== 1 ||
    !standsAlone(declaration)
  )
    return undefined;
  const variable = file.sourceCode.getDeclaredVariables(declarator)[0];
  const reads = variable?.references.filter((r) => r.isRead()) ?? [];
  if (reads.length === 0) return undefined;
  const branches: TSESTree.IfStatement[] = [];
  for (const reference of reads) {
    const branch = flagBranch(reference.identifier, removable);
    if (!branch) return undefined;
    branches.push(branch);
  }
  return { declaration, branches };
}

/** The binding a removed spawner call leaves unused (`execSync` from child_process). */
function unusedBinding(facts: CallFacts, file: SourceFileInfo): TSESTree.Node | undefined {
  if (facts.unusedImport) return facts.unusedImport;
  if (facts.kind !== 'command' || facts.call.type !== 'CallExpression') return undefined;
  return importThatBecomesUnused(facts.call.callee, file.sourceCode);
}

export const MIGRATIONS_PREFILTER: readonly string[] = [
  ...new Set([
    ...SCHEMA_OPTIONS_APIS.flatMap((api) => api.modules),
    ...SCHEMA_WRITE_FUNCTIONS.map((fn) => (Array.isArray(fn.modules) ? fn.modules[0]! : 'migrator')),
    // An entry whose evidence modules all name migrations (`@prisma/migrate`, whose `Migrate` the receiver must show) is
    // taken in by the runner words below; its common method names (`push(`) would take in nearly every file.
    ...SCHEMA_WRITE_METHODS.filter((m) => !m.evidence?.every((e) => typeof e === 'string' && e.includes('migrat'))).flatMap((m) =>
      m.methods.map((method) => `${method}(`),
    ),
    ...PROCESS_SPAWNERS.flatMap((s) => s.modules),
    ...DEFAULT_MIGRATION_FLAGS,
    // The project's own runners (`migrateDb()`, `dbClient.migrate()`, `runMigrations()`): the rule
    // reports them by name, so the codemod must read such files to mark them.
    ...MIGRATION_RUNNER_WORDS,
    // A function of the file that sends schema DDL itself (`pool.query('CREATE TABLE …')`) is
    // reported at its call: the file holds the statement.
    ...['CREATE ', 'ALTER ', 'DROP ', 'create table', 'alter table', 'create index'],
    // TypeORM's options built with no import in the file (`{ type: process.env.DB_TYPE, synchronize, entities }`).
    ...['synchronize', 'migrationsRun'],
    // An updater named for the database (`updateDb()`), a versioned updater's step folder (`` `./updates/${v}` ``).
    ...SCHEMA_UPDATER_WORDS,
    ...UPDATE_STEP_FOLDER_WORDS,
  ]),
];

function apply(file: SourceFileInfo, findings: ReadonlyArray<Finding<string, Facts>>): TransformOutput {
  const edits: TextEdit[] = [];
  const manual: ManualNote[] = [];
  const removedRanges: TSESTree.Node[] = [];
  const bindings = new Set<TSESTree.Node>();
  const note = (finding: Finding<string, Facts>, reason: string): void => {
    manual.push({ offset: finding.node.range[0], reason });
  };

  // 1. Options: `synchronize` → false, `migrationsRun` removed.
  for (const finding of findings) {
    const facts = finding.facts;
    if (facts.kind !== 'option') continue;
    const object = facts.property.parent;
    if (facts.option === 'migrationsRun' && object?.type === 'ObjectExpression') {
      edits.push(propertyRemovalEdit(file.text, facts.property, object.properties));
    } else {
      edits.push({ start: facts.property.value.range[0], end: facts.property.value.range[1], text: 'false' });
    }
    removedRanges.push(facts.property);
  }

  // The project's own runner (`migrateDb()`) may do more than migrate: moving it is a person's call.
  for (const finding of findings) {
    const facts = finding.facts;
    if (facts.kind === 'importedOption')
      note(
        finding,
        `\`${facts.option}\` is set in ${facts.module}: set it to \`false\` there and run migrations from the migrate entrypoint`,
      );
    if (facts.kind === 'runner')
      note(
        finding,
        `${facts.runner} runs the project's migrations at start-up, on every replica: call it from the migrate entrypoint's \`migrate\` and remove it here`,
      );
  }

  // 2. The calls that can go as whole statements, and the flag branches made only of them.
  const calls = findings.filter((f): f is Finding<string, CallFacts> => f.facts.kind === 'call' || f.facts.kind === 'command');
  const removable = new Set<TSESTree.Node>(
    calls.flatMap((f) =>
      f.facts.statement && standsAlone(f.facts.statement) && !NOT_SQL_MIGRATORS.has(f.facts.library) ? [f.facts.statement] : [],
    ),
  );
  const branches = new Set<TSESTree.IfStatement>();
  for (const finding of findings) {
    const facts = finding.facts;
    if (facts.kind !== 'flag') continue;
    if (removedRanges.some((r) => contains(r, facts.read.range[0]))) continue;
    const viaConstant = flagConstant(facts.read, removable, file);
    if (viaConstant) {
      edits.push(removalEdit(file.text, viaConstant.declaration));
      removedRanges.push(viaConstant.declaration);
      for (const branch of viaConstant.branches) {
        if (!branches.has(branch)) edits.push(removalEdit(file.text, branch));
        branches.add(branch);
      }
      continue;
    }
    const branch = flagBranch(facts.read, removable);
    if (!branch) {
      note(
        finding,
        `${facts.flag} is read outside an \`if\` that only runs schema writes; remove the flag and the code it switches by hand (the migrate entrypoint is the only writer of schema)`,
      );
      continue;
    }
    if (!branches.has(branch)) edits.push(removalEdit(file.text, branch));
    branches.add(branch);
  }
  for (const branch of branches) removedRanges.push(branch);

  // 3. The calls themselves.
  for (const finding of calls) {
    const facts = finding.facts;
    // `runMigrations` locks PostgreSQL: a MongoDB migrator keeps its call until a person moves it to a one-off job.
    if (NOT_SQL_MIGRATORS.has(facts.library)) {
      note(
        finding,
        `${facts.library} migrates a database runMigrations cannot lock: run it from a one-off job before the servers start, and remove it here`,
      );
      continue;
    }
    const statement = facts.statement;
    const inBranch = statement !== undefined && [...branches].some((b) => contains(b, statement.range[0]));
    if (!inBranch) {
      if (!statement) {
        note(finding, "the schema write's result is used (assigned, returned or chained); move it to the migrate entrypoint by hand");
        continue;
      }
      if (!standsAlone(statement)) {
        note(finding, 'the schema write is the body of a branch or loop without braces; remove it by hand');
        continue;
      }
      edits.push(removalEdit(file.text, statement));
    }
    const binding = unusedBinding(facts, file);
    if (binding) bindings.add(binding);
  }
  edits.push(...bindingRemovalEdits(file.text, bindings));
  return { edits, imports: [], manual };
}

/** Module names the project depends on or imports: which migrator to scaffold. */
function modulesInUse(root: string, view: ProjectView): Set<string> {
  const modules = new Set<string>();
  try {
    const json = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
    for (const field of ['dependencies', 'devDependencies', 'peerDependencies'])
      for (const name of Object.keys(json[field] ?? {})) modules.add(name);
  } catch {
    // No readable package.json: the imports below still tell.
  }
  for (const text of view.files.values()) {
    for (const match of text.matchAll(/(?:from\s+|require\(\s*)['"]([^'"]+)['"]/g)) modules.add(match[1]!);
  }
  return modules;
}

function project(view: ProjectView, context: { service: string }): ProjectOutput {
  const output: ProjectOutput = { changes: [], manual: [], files: [] };
  if (view.fixed === 0) return output;
  const root = packageInfoFor(view.cwd).dir;
  const packageJson = join(root, 'package.json');
  // Without a package.json the lookup ends at the filesystem root: never scaffold there.
  if (!existsSync(packageJson)) {
    output.manual.push({
      path: view.cwd,
      line: 1,
      reason: `no package.json at or above ${view.cwd}: scaffold ${ENTRYPOINT_PATH.typescript} on runMigrations by hand`,
    });
    return output;
  }
  const existing = [...view.files.keys()].find((path) => matchesAny(path, root, DEFAULT_MIGRATE_ENTRYPOINTS));
  const typescript = existsSync(join(root, 'tsconfig.json')) || [...view.files.keys()].some((p) => /\.[cm]?tsx?$/.test(p));
  const relativePath = typescript ? ENTRYPOINT_PATH.typescript : ENTRYPOINT_PATH.javascript;
  const entrypoint = existing ?? join(root, relativePath);
  const migrator = migratorFor(modulesInUse(root, view));

  if (existing || existsSync(entrypoint)) {
    output.manual.push({
      path: entrypoint,
      line: 1,
      reason: `a migrate entrypoint exists and was left as it is: make sure it runs ${migrator === 'own' ? 'your migrations' : `the ${migrator} migrations`} with runMigrations`,
    });
  } else {
    // Top-level `await` only where the package is ESM: a CommonJS TypeScript project cannot compile it (TS1378).
    const module = packageInfoFor(root).type === 'module' ? 'esm' : typescript ? 'ts-cjs' : 'cjs';
    output.files!.push({ path: entrypoint, text: entrypointText({ migrator, lockKey: context.service, module }), create: true });
    if (migrator === 'own')
      output.manual.push({
        path: entrypoint,
        line: 1,
        reason: 'no ready-made migrator for the library in use: fill in `migrate` in the scaffolded entrypoint',
      });
  }

  const command = migrateScript(existing ? view.relative(existing) : relativePath, typescript);
  if (existsSync(packageJson)) {
    const result = withMigrateScript(readFileSync(packageJson, 'utf8'), command);
    if (result.kind === 'added') output.files!.push({ path: packageJson, text: result.text });
    else if (result.kind === 'exists' && result.script !== command)
      output.manual.push({
        path: packageJson,
        line: 1,
        reason: `the existing "migrate" script (${result.script}) was kept: make it run the migrate entrypoint (${command})`,
      });
    else if (result.kind === 'unreadable')
      output.manual.push({ path: packageJson, line: 1, reason: `${result.reason}: add "migrate": "${command}" to scripts by hand` });
  }
  output.manual.push({
    path: existsSync(packageJson) ? packageJson : entrypoint,
    line: 1,
    reason: `run the migrate entrypoint before the server in every pod: ${CONTAINER_COMMAND} (POSTGRES_MIGRATE_URL set, direct to PostgreSQL)`,
  });
  // What an existing database needs before the entrypoint's first run, per migrator taken out of the app.
  const changed = [...view.files].flatMap(([path, after]) => {
    const before = view.originals.get(path);
    return before && before !== after ? [{ path, before, after }] : [];
  });
  const rule = noInAppMigrations as unknown as Parameters<ProjectView['detect']>[2];
  const paths = removedSchemaPaths(changed, (path, text) => view.detect(path, text, rule) as never);
  for (const reason of baselineFollowUps(paths)) output.manual.push({ path: packageJson, line: 1, reason });
  return output;
}

export const extractMigrations: Transform<Facts> = {
  name: 'extract-migrations',
  rule: noInAppMigrations,
  description:
    'Remove in-app schema writes (synchronize, migrationsRun, migrator calls, the POSTGRES_RUN_MIGRATIONS branch) and scaffold src/cmd/migrate on runMigrations with a `migrate` script.',
  prefilter: MIGRATIONS_PREFILTER,
  apply,
  project,
};
