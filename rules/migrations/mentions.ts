// A cheap text test run before any AST work: whether a file can contain one of the schema writes
// `no-in-app-migrations` reports. Each word is derived from the catalogue in
// src/knowledge/migrators.ts (an option key, a module specifier, a `via` name, a method name, a
// flag), so a file that lacks all of them cannot produce a finding and the rule skips it.
import {
  PROCESS_SPAWNERS,
  SCHEMA_OPTIONS_APIS,
  SCHEMA_WRITE_FUNCTIONS,
  SCHEMA_WRITE_METHODS,
  SCHEMA_WRITE_OPTIONS,
  viaWord,
} from '../../src/knowledge/migrators.js';
import { wordPattern } from '../../analysis/source/word-pattern.js';
import { mayRunPluginDdl } from './plugin-load-ddl.js';
import { mayRunStartDdl } from './start-ddl.js';

/** Module specifiers of the catalogue's functions; a pattern module falls back to the function's name. */
const FUNCTION_WORDS: readonly string[] = SCHEMA_WRITE_FUNCTIONS.flatMap((fn) =>
  Array.isArray(fn.modules) ? fn.modules : fn.path.slice(0, 1),
);
/** `prisma migrate deploy` / `prisma db push` (`prismaSchemaCommand`): the command names its tool. */
const COMMAND_WORDS: readonly string[] = ['prisma'];
/** The options and commands are found only through imports of these modules, so their files name them. */
const OPTIONS_MODULES: readonly string[] = [...new Set(SCHEMA_OPTIONS_APIS.flatMap((api) => api.modules))];
const SPAWNER_MODULES: readonly string[] = [...new Set(PROCESS_SPAWNERS.flatMap((spawner) => spawner.modules))];
/** Method names this long are rare words in a file ('createSchema', 'runMigrations'); 'up' or 'sync' are not. */
const SPECIFIC_LENGTH = 7;

/**
 * Words of which every file with a finding holds one: the option keys, function modules, the
 * command, and per method entry the most telling of the words all its findings need — its
 * method names when all are specific, else its `via` name, else its evidence modules, else its
 * method names. Tested first, in one pass.
 */
const ANCHOR_WORDS: readonly string[] = [
  ...SCHEMA_WRITE_OPTIONS,
  ...FUNCTION_WORDS,
  ...COMMAND_WORDS,
  ...SCHEMA_WRITE_METHODS.flatMap((method) => {
    if (method.methods.every((name) => name.length >= SPECIFIC_LENGTH)) return method.methods;
    if (method.via !== undefined) return [viaWord(method.via)];
    const evidence = method.evidence ?? [];
    // A call its options tell (`optionKeys`) needs no evidence: its method name is the word.
    if (method.optionKeys) return [...(evidence.filter((e) => typeof e === 'string') as string[]), ...method.methods];
    return evidence.length > 0 && evidence.every((e) => typeof e === 'string') ? (evidence as string[]) : method.methods;
  }),
];

/** Keyed by the flags array: a resolved settings object keeps it, so each is compiled once. */
const anchors = new WeakMap<readonly string[], { anchor: RegExp; flags: RegExp }>();
function patternsFor(flags: readonly string[]): { anchor: RegExp; flags: RegExp } {
  let patterns = anchors.get(flags);
  if (!patterns) {
    patterns = { anchor: wordPattern([...ANCHOR_WORDS, ...flags]), flags: wordPattern(flags) };
    anchors.set(flags, patterns);
  }
  return patterns;
}

// One scan of the text per group of words, not one per word: a word the file lacks costs a
// whole scan, and most files that pass the anchors lack most words.
const OPTION_WORDS = wordPattern(SCHEMA_WRITE_OPTIONS);
const OPTION_MODULE_WORDS = wordPattern(OPTIONS_MODULES);
const FUNCTION_PATTERN = wordPattern(FUNCTION_WORDS);
const COMMAND_PATTERN = wordPattern(COMMAND_WORDS);
const SPAWNER_PATTERN = wordPattern(SPAWNER_MODULES);

/** Which of `no-in-app-migrations`' checks can find anything in `text`; `undefined` when none can. */
export interface SchemaWriteMentions {
  options: boolean;
  functions: boolean;
  commands: boolean;
  flags: boolean;
  /** A project's own runner may be called (`migrateDb()`, `db.migrate()`, `migrations.up()`). */
  runners: boolean;
  /** TypeORM options may be built here without a DataSource in sight (`synchronize` is named). */
  typedOptions: boolean;
  /** A Fastify plugin may send schema DDL as it loads (`mayRunPluginDdl`). */
  pluginDdl: boolean;
  /** Layout DDL may be sent as the module loads or from an initialiser (`mayRunStartDdl`). */
  startDdl: boolean;
}

/** The words every runner call holds (`runMigrations`, `migrateDb`, `migrate`, `migrator`, `umzug`). */
const RUNNER_WORDS = /migrat|umzug/i;

/** Which kinds of schema write `text` can hold (`flags`: the migration flag settings); `undefined` for none. */
export function schemaWriteMentions(text: string, flags: readonly string[]): SchemaWriteMentions | undefined {
  const patterns = patternsFor(flags);
  const runners = RUNNER_WORDS.test(text);
  const pluginDdl = mayRunPluginDdl(text);
  const startDdl = mayRunStartDdl(text);
  if (!runners && !pluginDdl && !startDdl && !patterns.anchor.test(text)) return undefined;
  const optionWords = OPTION_WORDS.test(text);
  return {
    runners,
    typedOptions: optionWords,
    options: optionWords && OPTION_MODULE_WORDS.test(text),
    functions: FUNCTION_PATTERN.test(text),
    // Prisma's commands name it; other migrators' CLI commands (`sequelize db:migrate`) hold `migrat`.
    commands: (runners || COMMAND_PATTERN.test(text)) && SPAWNER_PATTERN.test(text),
    flags: patterns.flags.test(text),
    pluginDdl,
    startDdl,
  };
}

/** No schema write named in the text: only calls into other modules are asked about. */
export const NO_MENTIONS: SchemaWriteMentions = {
  options: false,
  functions: false,
  commands: false,
  flags: false,
  runners: false,
  typedOptions: false,
  pluginDdl: false,
  startDdl: false,
};
