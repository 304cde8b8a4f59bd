// Schema writes belong to one place: the service's migrate entrypoint, run once per deploy from every pod's entrypoint
// under an advisory lock. Anything else that writes schema — ORM options that synchronise or migrate at start-up, migrator
// calls in app code, `prisma migrate deploy` spawned by the server, a `POSTGRES_RUN_MIGRATIONS` flag — is a second,
// unlocked migration path that every replica runs at once.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { createRule, type DetectContext } from './utils/create-rule.js';
import { codeTextOf } from '../analysis/source/code-text.js';
import { importedReferences, moduleSpecifiers, type TrackedApi } from '../analysis/imports/imported-references.js';
import { commandLibrary, isSpawnerTag, schemaWriteCommands, spawnCalls } from './migrations/command-text.js';
import { NO_MENTIONS, schemaWriteMentions, type SchemaWriteMentions } from './migrations/mentions.js';
import { mayWriteSchema } from './migrations/schema-write-forms.js';
import { callsNamed, crossFileCallsOf, memberCallsNamed, propertiesKeyed } from './migrations/called-names.js';
import { isSchemaWriteExemptFile } from './migrations/exempt-file.js';
import { onStartPaths } from './migrations/start-paths.js';
import { migrationFactoryResults, migrationOptionsObjects } from './migrations/options-objects.js';
import { importThatBecomesUnused, removableStatement } from './migrations/removal.js';
import { isDatabaseArgument, isInMigrationDefinition, migrationRunnerCall } from './migrations/runner-calls.js';
import { namedMigrationStep } from './migrations/named-steps.js';
import { handWrittenRuns } from './migrations/list-runs.js';
import { stepModuleRuns } from './migrations/step-module-runs.js';
import { isTypeOrmOptionsObject } from './migrations/typed-options.js';
import { isOptionOff } from './migrations/option-off.js';
import { echoesParameterOption } from './migrations/echoed-options.js';
import { importedValueIn, migratesEmbeddedClient, namesEmbeddedDatabase, receiverIsEmbedded } from './migrations/embedded-database.js';
import { embeddedSubclass } from './migrations/migrator-subclass.js';
import { runsInSqliteBranch } from './migrations/sqlite-branch.js';
import { pluginLoadDdlCalls } from './migrations/plugin-load-ddl.js';
import { mayRunStartDdl, startDdlCalls } from './migrations/start-ddl.js';
import { layoutStepRuns } from './migrations/layout-steps.js';
import { requestDdlCalls } from './migrations/request-ddl.js';
import { factoryResultMethod, factoryRunnerVerdict } from './migrations/factory-results.js';
import { matchingEntry, possibleMethodEntries, schemaWriteFunctionCatalogue } from './migrations/method-entries.js';
import { crossFileRunner, importedSchemaWriteOptions, migratesSomethingElse } from './migrations/cross-file.js';
import { prismaOnHostDatabase, projectFunctionOf } from '../analysis/modules/index.js';
import { unwrapExpression } from '../analysis/ast/unwrapped-expression.js';
import { memberPropertyName, propertyKeyName } from '../analysis/ast/property-names.js';
import { readSettings } from '../analysis/settings.js';
import { runsPerRequest } from '../analysis/request-handler-around.js';
import {
  appliesMigrations,
  SCHEMA_OPTIONS_APIS,
  SCHEMA_WRITE_OPTIONS,
  type MigratorLibrary,
  type SchemaOptionsApi,
} from '../src/knowledge/migrators.js';

export type NoInAppMigrationsMessageIds = 'schemaWriteOption' | 'schemaWriteCall' | 'schemaWriteCommand' | 'migrationFlag';

/** What the `extract-migrations` codemod needs to take the in-app migration path out. */
export type NoInAppMigrationsFacts =
  | {
      kind: 'option';
      library: MigratorLibrary;
      /** `synchronize` / `migrationsRun`. */
      option: string;
      /** The property whose value becomes `false`. */
      property: TSESTree.Property;
      /** The call or `new` that takes the options; undefined for options built here and passed elsewhere (`const options: DataSourceOptions`). */
      call: TSESTree.CallExpression | TSESTree.NewExpression | undefined;
    }
  | {
      kind: 'importedOption';
      /** `synchronize` / `migrationsRun` in options another module builds. */
      option: string;
      /** The argument that names the imported options (`options` in `new DataSource(options)`). */
      argument: TSESTree.Node;
      /** The module that builds them. */
      module: string;
    }
  | {
      kind: 'runner';
      /** The project's own runner as called (`migrateDb()`, `dbClient.migrate()`). */
      runner: string;
      call: TSESTree.CallExpression;
    }
  | {
      kind: 'call' | 'command';
      library: MigratorLibrary;
      /** The schema-writing call (`knex.migrate.latest()`, `migrate(db, …)`, `execSync('npx prisma migrate deploy')`). */
      call: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression;
      /** The statement to remove when it is only this call (awaited or not). */
      statement: TSESTree.ExpressionStatement | undefined;
      /** The import specifier / require binding that becomes unused once the call is removed. */
      unusedImport: TSESTree.Node | undefined;
    }
  | {
      kind: 'flag';
      /** The environment variable (`POSTGRES_RUN_MIGRATIONS`). */
      flag: string;
      /** The read: `process.env.X`, `env['X']`, or the `{ X }` destructuring property. */
      read: TSESTree.Node;
    };

type Report = Parameters<
  Parameters<typeof createRule<NoInAppMigrationsMessageIds, readonly unknown[], NoInAppMigrationsFacts>>[0]['detect']
>[1];
type SourceCode = Readonly<TSESLint.SourceCode>;

const OPTIONS_CATALOGUE: TrackedApi<SchemaOptionsApi>[] = SCHEMA_OPTIONS_APIS.map((api) => ({
  modules: api.modules,
  path: api.path,
  kind: api.kind,
  entry: api,
}));

function reportOptions(
  call: TSESTree.CallExpression | TSESTree.NewExpression,
  api: SchemaOptionsApi,
  sourceCode: SourceCode,
  report: Report,
  seen: Set<TSESTree.Node>,
): void {
  const objects = migrationOptionsObjects(call.arguments[0], sourceCode);
  if (api.factory) for (const options of [...objects]) objects.push(...migrationFactoryResults(options, api.factory, sourceCode));
  // A per-host file database (`type: 'better-sqlite3'`): no second replica shares it.
  if (namesEmbeddedDatabase(objects)) return;
  for (const object of objects) {
    for (const property of object.properties) {
      if (property.type !== 'Property' || seen.has(property)) continue;
      const option = propertyKeyName(property);
      if (!option || !SCHEMA_WRITE_OPTIONS.includes(option)) continue;
      if (isOptionOff(property.value)) continue;
      seen.add(property);
      report({
        messageId: 'schemaWriteOption',
        data: { option, value: sourceCode.getText(property.value), api: api.api },
        node: property,
        facts: { kind: 'option', library: api.library, option, property, call },
      });
    }
  }
}

const flagCatalogues = new WeakMap<readonly string[], TrackedApi<string>[]>();
/** The flag, through any form of `process.env` access (member, computed, destructuring, alias, `node:process`). */
function flagCatalogueOf(flags: readonly string[]): TrackedApi<string>[] {
  let catalogue = flagCatalogues.get(flags);
  if (!catalogue) {
    catalogue = flags.flatMap((flag) => [
      { modules: [null], path: ['process', 'env', flag], kind: 'read' as const, entry: flag },
      { modules: ['process', 'node:process'], path: ['env', flag], kind: 'read' as const, entry: flag },
    ]);
    flagCatalogues.set(flags, catalogue);
  }
  return catalogue;
}

/** Names of calls that may be a project's runner: a cheap filter before `migrationRunnerCall`. */
const RUNNER_CALL_NAME = /migrat|^(?:up|latest|run|runAll|runPending|execute|sync)$/i;
const isRunnerName = (name: string): boolean => RUNNER_CALL_NAME.test(name);
/** What each of those names holds, as a whole word for the run verbs (`migrator.up()`, `this.migrationService.run()`): where the text is looked at. */
const RUNNER_STEMS = /migrat|\b(?:up|latest|run|runAll|runPending|execute|sync)\b/gi;
/**
 * Calls of the project's own migration runner not already reported as a known migrator: told by
 * `runnerOf` (by names, `migrateDb()`, or across files, `setupDatabase()` that migrates).
 */
function reportRunnerCalls(
  calls: readonly TSESTree.CallExpression[],
  reported: Set<TSESTree.Node>,
  report: Report,
  runnerOf: (call: TSESTree.CallExpression) => string | undefined,
) {
  for (const call of calls) {
    if (reported.has(call) || isInMigrationDefinition(call)) continue;
    const runner = runnerOf(call);
    if (runner === undefined) continue;
    reported.add(call);
    report({ messageId: 'schemaWriteCall', data: { api: `\`${runner}\`` }, node: call, facts: { kind: 'runner', runner, call } });
  }
}

/** Runs in project functions of other modules (`await setupDatabase()`), DDL a Fastify plugin or a module sends as it loads, an initialiser (start-ddl.ts), a layout step (`ensureTeamColumns()`, layout-steps.ts); DDL a route handler sends before its own work, past the request-handler filter (`unfiltered`, request-ddl.ts). */
function reportOtherModulesRuns(
  context: DetectContext,
  calls: TSESTree.CallExpression[],
  mentions: SchemaWriteMentions,
  reported: Set<TSESTree.Node>,
  [report, unfiltered]: [Report, Report],
) {
  reportRunnerCalls(calls, reported, report, (call) => crossFileRunner(context, call));
  const pluginCalls = mentions.pluginDdl ? pluginLoadDdlCalls(context.sourceCode) : [];
  reportRunnerCalls(pluginCalls, reported, report, (call) => `${context.sourceCode.getText(call.callee)}()`);
  const startCalls = new Map([...(mentions.startDdl ? startDdlCalls(context.sourceCode) : []), ...layoutStepRuns(context)]);
  reportRunnerCalls([...startCalls.keys()], reported, report, (call) => (runsPerRequest(context, call) ? undefined : startCalls.get(call)));
  for (const [c, api] of requestDdlCalls(context, mentions.startDdl)) reportRunnerCalls([c], reported, unfiltered, () => api);
}

/** `synchronize: true` in TypeORM options built here and handed to a DataSource elsewhere. */
function reportTypedOptions(
  properties: readonly TSESTree.Property[],
  reported: Set<TSESTree.Node>,
  sourceCode: SourceCode,
  report: Report,
) {
  for (const property of properties) {
    const object = property.parent;
    if (reported.has(property) || object?.type !== 'ObjectExpression' || !isTypeOrmOptionsObject(object)) continue;
    if (namesEmbeddedDatabase(migrationOptionsObjects(object, sourceCode))) continue;
    const option = propertyKeyName(property)!;
    if (isOptionOff(property.value)) continue;
    // `migrationsRun: options.migrationsRun` in a summary of the options a function was given: the caller decides.
    if (echoesParameterOption(property, sourceCode)) continue;
    reported.add(property);
    report({
      messageId: 'schemaWriteOption',
      data: { option, value: sourceCode.getText(property.value), api: 'TypeORM options' },
      node: property,
      facts: { kind: 'option', library: 'typeorm', option, property, call: undefined },
    });
  }
}

/** Schema commands (`prisma migrate deploy`, `prisma db push`, `sequelize db:migrate`) run through child_process, execa or zx. */
function reportCommands(
  context: DetectContext,
  taggedTemplates: readonly TSESTree.TaggedTemplateExpression[],
  reported: Set<TSESTree.Node>,
  report: Report,
): void {
  const spawns = spawnCalls(context);
  for (const tagged of taggedTemplates) if (isSpawnerTag(tagged.tag, context.sourceCode)) spawns.push([tagged, [tagged.quasi]]);
  let hostDatabase: boolean | undefined;
  for (const [node, command] of schemaWriteCommands(spawns, context.sourceCode)) {
    const call = node as TSESTree.CallExpression | TSESTree.TaggedTemplateExpression;
    const library = commandLibrary(command);
    if (reported.has(call)) continue;
    // The package's Prisma schema is SQLite: each host (or device) migrates its own database file.
    if (library === 'prisma' && (hostDatabase ??= prismaOnHostDatabase(context.filename))) continue;
    reported.add(call);
    report({
      messageId: 'schemaWriteCommand',
      data: { command },
      node: call,
      facts: { kind: 'command', library, call, statement: removableStatement(call), unusedImport: undefined },
    });
  }
}

/** `new DataSource(options)` with `options` imported from a module that builds them with `synchronize: true`. */
function reportImportedOptions(
  context: DetectContext,
  call: TSESTree.CallExpression | TSESTree.NewExpression,
  api: SchemaOptionsApi,
  report: Report,
): void {
  const argument = call.arguments[0];
  for (const { option, value, module } of importedSchemaWriteOptions(context, argument)) {
    report({
      messageId: 'schemaWriteOption',
      data: { option, value, api: api.api },
      node: argument!,
      facts: { kind: 'importedOption', option, argument: argument!, module },
    });
  }
}

export const noInAppMigrations = createRule<NoInAppMigrationsMessageIds, readonly unknown[], NoInAppMigrationsFacts>({
  name: 'no-in-app-migrations',
  meta: {
    type: 'problem',
    docs: {
      description: 'Disallow schema writes outside the migrate entrypoint: every replica would run them at once, unlocked',
      recommended: true,
    },
    messages: {
      schemaWriteOption:
        '`{{option}}: {{value}}` in {{api}} makes every replica write the schema when it starts, racing the others. Set it to `false` and apply migrations from the migrate entrypoint (`runMigrations`).',
      schemaWriteCall:
        '{{api}} writes the schema from app code, on every replica at once. Move it to the migrate entrypoint (cmd/migrate on `runMigrations`), the only writer of schema.',
      schemaWriteCommand:
        '`{{command}}` spawned from app code runs on every replica at once. Run it from the migrate entrypoint under the advisory lock (`runMigrations` with the migrator, `prismaMigrator` for Prisma).',
      migrationFlag:
        '`{{flag}}` switches on a second migration path. Remove it: the migrate entrypoint runs before the server on every pod and is the only writer of schema.',
    },
    schema: [],
  },
  defaultOptions: [],
  detect(context, report) {
    const sourceCode = context.sourceCode;
    const flags = readSettings(context.settings).migrationFlags;
    // One pass over the raw text skips the files that call no migrator or runner, name no option or flag and load no
    // Fastify plugin's DDL; of those, the start DDL's words skip the files that send no layout DDL when they load.
    if (!mayWriteSchema(sourceCode, flags, true) && !mayRunStartDdl(sourceCode.text)) return {};
    const text = codeTextOf(sourceCode);
    // A call into another module may run migrations (`await setupDatabase()`), with no migrator
    // named here. Such calls, and the project's own runners, are found by their names in the text.
    const crossFileCallsHere = crossFileCallsOf(sourceCode, text);
    const mentions = schemaWriteMentions(text, flags) ?? (crossFileCallsHere().length > 0 ? NO_MENTIONS : undefined);
    if (!mentions || isSchemaWriteExemptFile(context)) return {};
    // The imports are known before the walk (`sourceCode.ast`): a method entry whose evidence
    // module is not imported (nor named, for a receiver from a project module), or whose names the text lacks, cannot match here.
    const modules = moduleSpecifiers(sourceCode.ast);
    const methodEntries = possibleMethodEntries(modules, text);
    const methodNames = new Set([...methodEntries.own, ...methodEntries.borrowed, ...methodEntries.byOptions].flatMap((m) => m.methods));
    // Member calls with a catalogue method name, matched against the entries at the end.
    const methodCalls = methodNames.size > 0 ? memberCallsNamed(sourceCode, methodNames) : [];
    const taggedTemplates: TSESTree.TaggedTemplateExpression[] = [];

    return {
      ...(mentions.commands && {
        TaggedTemplateExpression(node: TSESTree.TaggedTemplateExpression) {
          taggedTemplates.push(node);
        },
      }),
      'Program:exit'() {
        const imported = importedValueIn(context);
        const { report: reportHere, flush } = onStartPaths(context, report);
        // ORM options that synchronise or migrate at start-up.
        const reportedProperties = new Set<TSESTree.Node>();
        const optionsModule = SCHEMA_OPTIONS_APIS.some((api) => api.modules.some((m) => modules.has(m)));
        for (const ref of mentions.options || optionsModule ? importedReferences(context, OPTIONS_CATALOGUE) : []) {
          if (ref.node.type !== 'CallExpression' && ref.node.type !== 'NewExpression') continue;
          reportOptions(ref.node, ref.entry, sourceCode, reportHere, reportedProperties);
          reportImportedOptions(context, ref.node, ref.entry, reportHere);
        }
        const optionProperties = mentions.typedOptions ? propertiesKeyed(sourceCode, SCHEMA_WRITE_OPTIONS) : [];
        reportTypedOptions(optionProperties, reportedProperties, sourceCode, reportHere);

        // Imported migrator functions (Drizzle's per-driver `migrator` modules are matched by pattern).
        const functionCatalogue = mentions.functions ? schemaWriteFunctionCatalogue(modules) : [];
        const reportedCalls = new Set<TSESTree.Node>();
        for (const ref of functionCatalogue.length > 0 ? importedReferences(context, functionCatalogue) : []) {
          if (ref.node.type !== 'CallExpression' || reportedCalls.has(ref.node)) continue;
          reportedCalls.add(ref.node);
          const command = ref.node.arguments[0];
          if (!appliesMigrations(ref.entry, command?.type === 'Literal' ? command.value : undefined)) continue;
          if (migratesEmbeddedClient(ref.node, sourceCode, imported)) continue;
          reportHere({
            messageId: 'schemaWriteCall',
            data: { api: ref.entry.api },
            node: ref.node,
            facts: {
              kind: 'call',
              library: ref.entry.library,
              call: ref.node,
              statement: removableStatement(ref.node),
              unusedImport: importThatBecomesUnused(ref.node.callee, sourceCode),
            },
          });
        }

        // Commands: `prisma migrate deploy` / `prisma db push` run through child_process, execa or zx.
        if (mentions.commands) reportCommands(context, taggedTemplates, reportedCalls, reportHere);

        // The flag, through any form of `process.env` access (member, computed, destructuring, alias, `node:process`).
        for (const ref of mentions.flags ? importedReferences(context, flagCatalogueOf(flags)) : []) {
          reportHere({
            messageId: 'migrationFlag',
            data: { flag: ref.entry },
            node: ref.node,
            facts: { kind: 'flag', flag: ref.entry, read: ref.node },
          });
        }

        methodCalls.forEach((call) => {
          if (reportedCalls.has(call) || isInMigrationDefinition(call)) return;
          const callee = unwrapExpression(call.callee);
          if (callee.type !== 'MemberExpression') return;
          const method = memberPropertyName(callee);
          const entry = method && matchingEntry(context, methodEntries, method, callee.object);
          if (!entry || receiverIsEmbedded(callee.object, sourceCode, imported) || runsInSqliteBranch(call, sourceCode)) return;
          if (factoryResultMethod(context, call)?.runs === false) return;
          // A project method's body (`store.runMigrations()`), or the modules building a migrator subclass (`this.migrateToLatest()`), says more.
          if (migratesSomethingElse(call, projectFunctionOf(context, call.callee)) || embeddedSubclass(context, call)) return;
          reportedCalls.add(call);
          reportHere({
            messageId: 'schemaWriteCall',
            data: { api: entry.api === 'knex.migrate' ? `knex.migrate.${method}()` : entry.api },
            node: call,
            facts: { kind: 'call', library: entry.library, call, statement: removableStatement(call), unusedImport: undefined },
          });
        });
        const runnerCalls = mentions.runners ? callsNamed(sourceCode, RUNNER_STEMS, isRunnerName) : [];
        reportRunnerCalls(runnerCalls, reportedCalls, reportHere, (call) => {
          // A method on what a project factory builds (`getMigrator(db)`, `createTools(db)`): the factory's result says what it runs.
          const made = factoryRunnerVerdict(context, call);
          if (made !== undefined) return made ?? undefined;
          const runner = embeddedSubclass(context, call)
            ? undefined
            : (migrationRunnerCall(call, sourceCode) ?? namedMigrationStep(context, call));
          if (runner === undefined || migratesEmbeddedClient(call, sourceCode, imported)) return undefined;
          // A step given what one request names (`runDataMigrations(userId)` in the import route's helper) runs for that request, on one replica.
          if (call.arguments.some((a) => !isDatabaseArgument(a)) && runsPerRequest(context, call)) return undefined;
          // Its name says it runs migrations; a body read in another module may say it migrates something else.
          return migratesSomethingElse(call, projectFunctionOf(context, call.callee)) ? undefined : runner;
        });
        reportOtherModulesRuns(context, crossFileCallsHere(), mentions, reportedCalls, [reportHere, report]);
        // A hand-written migrator: each file, statement or module of a migrations list sent to the database (not a per-host
        // file database's); and a versioned updater: a loop loading each step module of an updates folder and running it.
        const handRuns = stepModuleRuns(sourceCode, mentions.runners ? handWrittenRuns(sourceCode, modules, text) : new Map());
        reportRunnerCalls([...handRuns.keys()], reportedCalls, reportHere, (call) =>
          migratesEmbeddedClient(call, sourceCode, imported) ? undefined : handRuns.get(call),
        );
        flush();
      },
    };
  },
});

export default noInAppMigrations;
