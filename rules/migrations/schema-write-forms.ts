// The first test `no-in-app-migrations` runs on a file, on its raw text in one pass: whether the
// file holds a schema write in a form the rule can report, not merely a word of the vocabulary.
// Libraries and services say `schema`, `database`, `db` and `migration` in their own names all the
// time (`getCurrentSchema()`, `this.db.query()`, `mongodb`); a finding needs one of them CALLED
// (`migrate(db)`, `await setupDatabase()`, `initDb()`, `knex.migrate.latest()`, `umzug.up()`),
// an option written as a key (`synchronize:`, `migrationsRun:`), the migration flag, or a library
// whose import alone makes a call a schema write (umzug, sequelize, node-pg-migrate, a Drizzle
// migrator, Prisma's CLI, TypeORM's options built elsewhere). Each occurrence of a stem is looked
// at where it stands: the identifier around it, and what follows that identifier.
// A file that passes goes on to the rule's own word tests (`schemaWriteMentions`), so this test
// only ever removes files that could not have produced a finding.
import { CROSS_FILE_CANDIDATE } from '../../src/knowledge/migration-runs.js';
import { tokenAt, type TokenLike } from '../../analysis/source/string-text.js';
import { isIdentifierCode } from '../../analysis/source/identifier-code.js';
import { escapeRegExp } from '../../analysis/source/word-pattern.js';
import { mayRunPluginDdl } from './plugin-load-ddl.js';
import { afterClosing, callOpenAt, chainStart, codeBefore, isQuote, MODIFIERS, skipSpace, startsWord, wordBefore } from './text-shapes.js';
import {
  PROCESS_SPAWNERS,
  SCHEMA_OPTIONS_APIS,
  SCHEMA_WRITE_FUNCTIONS,
  SCHEMA_WRITE_METHODS,
  SCHEMA_WRITE_OPTIONS,
} from '../../src/knowledge/migrators.js';

/**
 * Stems of the names that matter, and of the libraries and words that admit a file by their
 * mere presence. Every runner or migrator name holds `migrat` or `umzug`, every name asked about
 * across files one of `migrat`, `database`, `schema`, `db` (`CROSS_FILE_CANDIDATE`).
 */
const NAME_STEMS = ['migrat', 'database', 'schema', 'db', 'umzug', 'synchronize', 'prisma', 'sequelize', 'typeorm'];
/** The catalogue's method names that hold no stem and are rare words (Mongoose's `syncIndexes`): a call of one admits the file. */
const CALLED_METHODS: readonly string[] = SCHEMA_WRITE_METHODS.flatMap((m) => m.methods).filter(
  (name) => name.length >= 7 && !NAME_STEMS.some((stem) => name.toLowerCase().includes(stem)),
);
const STEMS = [...NAME_STEMS, ...CALLED_METHODS.map((name) => name.toLowerCase())];
/** Modules whose import is the evidence for an options object or a method (`SCHEMA_OPTIONS_APIS`, `SCHEMA_WRITE_METHODS`). */
const TYPEORM_MODULES: readonly string[] = [...new Set(SCHEMA_OPTIONS_APIS.flatMap((api) => api.modules))];
const SEQUELIZE_MODULES: readonly string[] = SCHEMA_WRITE_METHODS.filter((m) => m.library === 'sequelize').flatMap((m) =>
  (m.evidence ?? []).filter((e): e is string => typeof e === 'string'),
);
/**
 * Migrator modules whose functions write schema under any local name (`node-pg-migrate`, each
 * with the offset of `migrat` in it); a Drizzle migrator is told by its `…/migrator` specifier.
 * Every such module of the catalogue names itself for migrations.
 */
const MIGRATOR_MODULES: ReadonlyArray<readonly [string, number]> = [
  ...SCHEMA_WRITE_FUNCTIONS.flatMap((fn) => (Array.isArray(fn.modules) ? fn.modules : [])),
  // and the modules whose import is a method's evidence (`db-migrate` for `getInstance(…).up()`)
  ...SCHEMA_WRITE_METHODS.flatMap((m) => (m.evidence ?? []).filter((e): e is string => typeof e === 'string')),
]
  .map((module): [string, number] => [module, module.indexOf('migrat')])
  .filter(([, offset]) => offset >= 0);
const SPAWNER_MODULES: readonly string[] = [...new Set(PROCESS_SPAWNERS.flatMap((spawner) => spawner.modules))];
/** A spawner's module name in quotes of one kind (`'execa'`, `"node:child_process"`): one scan of the text for them all. */
const SPAWNER_MODULE_STRING = new RegExp(
  ["'", '"'].map((quote) => `${quote}(?:${SPAWNER_MODULES.map(escapeRegExp).join('|')})${quote}`).join('|'),
);
/** Methods called on a receiver named with a stem: `knex.migrate.latest()`, `umzug.up()`, `migrator.down()`, `Schema.Create()`, `this.migrationService.run()`. */
const RECEIVER_METHODS = new Set(['up', 'down', 'latest', 'rollback', 'Create', 'run', 'runAll', 'runPending', 'execute']);
/** Sequelize's schema-writing methods (`sync`), called on a receiver named for it. */
const SEQUELIZE_METHODS = new Set(SCHEMA_WRITE_METHODS.filter((m) => m.library === 'sequelize').flatMap((m) => m.methods));
/** Methods told by their options on any receiver (`optionKeys`: `conn.sync({ alter: true })`), as matched: `.sync`. */
const OPTION_TOLD = SCHEMA_WRITE_METHODS.filter((m) => m.optionKeys);
const OPTION_TOLD_CALLS: readonly string[] = [...new Set(OPTION_TOLD.flatMap((m) => m.methods.map((name) => `.${name}`)))];
const OPTION_TOLD_KEYS: readonly string[] = [...new Set(OPTION_TOLD.flatMap((m) => m.optionKeys ?? []))];

/**
 * Keyed by the flags array (a resolved settings object keeps it): the stems, then the flags. A
 * flag that begins with a stem (`DB_MIGRATE`) goes first, so that it wins where both match; the
 * others cannot lose a position to a stem, and the expression scans faster with the stems first.
 */
const patterns = new WeakMap<readonly string[], RegExp>();
function patternFor(flags: readonly string[]): RegExp {
  let pattern = patterns.get(flags);
  if (!pattern) {
    const first = flags.filter((flag) => STEMS.some((stem) => flag.toLowerCase().startsWith(stem)));
    const last = flags.filter((flag) => !first.includes(flag));
    // `fastify` last (`mayWriteSchema`'s `orPluginDdl`): the flags win where one spells it.
    pattern = new RegExp([...first, ...STEMS, ...OPTION_TOLD_CALLS, ...last, PLUGIN_NAME].map(escapeRegExp).join('|'), 'gi');
    patterns.set(flags, pattern);
  }
  return pattern;
}

/** The word `mayRunPluginDdl` looks for first, as written (`/fastify/`): a plugin's module names it. */
const PLUGIN_NAME = 'fastify';

/** The stem a match spells (`Schema`, `DB`, `Migrat` → `schema`, `db`, `migrat`), or undefined for a flag; each spelling is lowered once. */
const stems = new Map<string, string | undefined>();
function stemOf(spelling: string): string | undefined {
  let stem = stems.get(spelling);
  if (stem === undefined && !stems.has(spelling)) {
    const lower = spelling.toLowerCase();
    stem = STEMS.includes(lower) ? lower : undefined;
    if (stems.size < 4096) stems.set(spelling, stem);
  }
  return stem;
}

/** Whether the method name ending at `end` is called with an options object whose first key tells it (`.sync({ alter: true })`). */
function isOptionToldCallAt(text: string, end: number): boolean {
  if (isIdentifierCode(text.charCodeAt(end))) return false;
  const open = callOpenAt(text, end);
  if (open < 0 || text.charCodeAt(open) !== 40) return false;
  let i = skipSpace(text, open + 1);
  if (text.charCodeAt(i) !== 123) return false; // {
  i = skipSpace(text, i + 1);
  if (isQuote(text.charCodeAt(i))) i++;
  return OPTION_TOLD_KEYS.some((key) => startsWord(text, i, key));
}

/**
 * Whether `.sync()` from `dot` to `end` is called with no arguments on a plain name (`conn.sync()`): a client another
 * module may build (receivers-built-elsewhere.ts); `glob.sync(pattern)` and `fs.readdirSync(dir)` take arguments.
 */
function isBareNamedCallAt(text: string, dot: number, end: number): boolean {
  // The receiver may end a line before the dot (`database\n  .sync()`).
  let before = dot - 1;
  while (before > 0 && /\s/.test(text[before]!)) before--;
  if (!isIdentifierCode(text.charCodeAt(before)) || isIdentifierCode(text.charCodeAt(end))) return false;
  const open = callOpenAt(text, end);
  return open >= 0 && text.charCodeAt(open) === 40 && text.charCodeAt(skipSpace(text, open + 1)) === 41;
}

/**
 * Whether the name starting at `start` (ending at `end`), followed by an argument list at `open`,
 * is called — not declared (`function migrate(db) {`, a method `async migrate(queries) {`,
 * `migrate(db): Promise<void>;`), constructed (`new Schema({…})`: a `new` is no call), or a
 * compiled callee in a sequence (`(0, db_1.getDatabase)()`: no name the rule reads).
 */
function isCallAt(text: string, start: number, end: number, open: number): boolean {
  const chain = chainStart(text, start);
  const before = codeBefore(text, chain);
  const word = wordBefore(text, chain);
  if (word === 'new' || word === 'function' || (before === 42 && wordBefore(text, text.lastIndexOf('*', chain)) === 'function'))
    return false;
  if (before === 44 && text.charCodeAt(skipSpace(text, end)) === 41) return false; // `(0, x.name)(…)`
  if (text.charCodeAt(open) !== 40) return true;
  const after = afterClosing(text, open + 1, 2000);
  if (after < 0) return true;
  const next = text.charCodeAt(skipSpace(text, after));
  if (next === 123) return false; // a body follows the parameters
  // A return type: where a class member or a declaration starts, not after `?` or `await`.
  const memberStart =
    text.charCodeAt(chain) !== 46 &&
    (before === 123 || before === 125 || before === 59 || before === 41 || before === -1 || MODIFIERS.has(word));
  return !(next === 58 && memberStart);
}

/** Whether the name ending at `at` is a receiver whose method call may write schema: `.latest(`, `?.up(`, `['down'](`, `!.up(`. */
function isMigratorReceiverAt(text: string, at: number, methods: ReadonlySet<string> = RECEIVER_METHODS): boolean {
  let i = skipSpace(text, at);
  if (text.charCodeAt(i) === 33) i = skipSpace(text, i + 1); // !
  if (startsWord(text, i, 'as') || startsWord(text, i, 'satisfies')) i = afterClosing(text, i, 200);
  else if (text.charCodeAt(i) === 41) i++; // (migrator).up()
  if (i < 0) return false;
  i = skipSpace(text, i);
  if (text.charCodeAt(i) === 63 && text.charCodeAt(i + 1) === 46) i += 1; // ?.
  let quoted = false;
  if (text.charCodeAt(i) === 46) i = skipSpace(text, i + 1);
  else if (text.charCodeAt(i) === 91) {
    i = skipSpace(text, i + 1) + 1; // [' or ["
    quoted = true;
  } else return false;
  let end = i;
  while (isIdentifierCode(text.charCodeAt(end))) end++;
  return methods.has(text.slice(i, end)) && callOpenAt(text, quoted ? skipSpace(text, end + 1) + 1 : end) >= 0;
}

/** Methods that walk a collection with a callback (`files.forEach((file) => …)`). */
const LOOP_METHODS: ReadonlySet<string> = new Set(['forEach', 'map', 'reduce']);

/** Whether the name from `start` to `end` is the collection a loop walks: `of migrationFiles`, `migrationFiles.forEach(`. */
function isLoopOverAt(text: string, start: number, end: number): boolean {
  return wordBefore(text, start) === 'of' || isMigratorReceiverAt(text, end, LOOP_METHODS);
}

/** Whether an option key or shorthand property (`synchronize: true`, `'migrationsRun': x`, `{ synchronize }`), or a call of the method, ends at `at`. */
function isKeyOrCallAt(text: string, at: number): boolean {
  const i = skipSpace(text, isQuote(text.charCodeAt(at)) ? at + 1 : at);
  const code = text.charCodeAt(i);
  return code === 58 || code === 44 || code === 125 || callOpenAt(text, i) >= 0; // : , }
}

/** Whether a module specifier (`'typeorm'`, `"@nestjs/sequelize"`, `'sequelize-typescript'`) of `modules` starts at `at`. */
function isSpecifierAt(text: string, at: number, modules: readonly string[]): boolean {
  return modules.some(
    (module) => isQuote(text.charCodeAt(at - 1)) && text.startsWith(module, at) && isQuote(text.charCodeAt(at + module.length)),
  );
}

/**
 * A module specifier at `at` (the stem's position) whose import makes calls schema writes under
 * any name: TypeORM's (options built in another module, `new DataSource(options)`), Sequelize's
 * (`.sync()`), a migrator module (`node-pg-migrate`, `drizzle-orm/…/migrator`: `import { migrate as
 * run } from …`).
 */
function isLibrarySpecifierAt(text: string, at: number, stem: string): boolean {
  if (stem === 'typeorm') return isSpecifierAt(text, at, TYPEORM_MODULES) || isSpecifierAt(text, at - 8, TYPEORM_MODULES);
  // `sequelize`, `@nestjs/sequelize`, `@sequelize/core`
  if (stem === 'sequelize') return [at, at - 8, at - 1].some((start) => isSpecifierAt(text, start, SEQUELIZE_MODULES));
  if (stem !== 'migrat') return false;
  if (MIGRATOR_MODULES.some(([module, offset]) => isSpecifierAt(text, at - offset, [module]))) return true;
  return text.charCodeAt(at - 1) === 47 && text.startsWith('migrator', at) && isQuote(text.charCodeAt(at + 8));
}

/** `prisma migrate deploy` counts only as a command run through child_process, execa or zx: the file imports one. */
function importsSpawner(text: string): boolean {
  return SPAWNER_MODULE_STRING.test(text);
}

/** Whether the parser's tokens put position `at` in a string or template (without tokens: no). */
function isStringAt(text: string, tokens: readonly TokenLike[] | undefined, at: number): boolean {
  if (!Array.isArray(tokens) || tokens.length === 0) return false;
  const token = tokens[tokenAt(tokens, at, 0)];
  return token !== undefined && token.range[0] <= at && (token.type === 'String' || token.type === 'Template');
}

/** What the test reads of a SourceCode. */
export interface SourceCodeLike {
  text: string;
  ast: { tokens?: readonly TokenLike[] | undefined };
}

/**
 * Whether the name at `at` is code, by the parser's tokens: not in a comment (no token covers it),
 * not in a string (`'SELECT current_database()'`) unless the string is a computed member or a
 * quoted key (`db['migrate']()`, `'synchronize': true`). Without tokens (another engine), it counts.
 */
export function isCodeAt(text: string, tokens: readonly TokenLike[] | undefined, at: number): boolean {
  if (!Array.isArray(tokens) || tokens.length === 0) return true;
  const token = tokens[tokenAt(tokens, at, 0)];
  if (!token || token.range[0] > at) return false;
  if (token.type !== 'String' && token.type !== 'Template') return true;
  const next = text.charCodeAt(skipSpace(text, token.range[1]));
  return next === 93 || (token.type === 'String' && next === 58); // ] (also a template: db[`migrate`]()) :
}

/**
 * Whether a file's raw text (`sourceCode.text`; its tokens only when an occurrence may count)
 * holds a schema write in a form `no-in-app-migrations` can report; `flags`: the migration flags
 * of the settings. `false` means the file cannot produce a finding; `true` only means the rule's
 * own tests run.
 */
export function mayWriteSchema(sourceCode: SourceCodeLike, flags: readonly string[], orPluginDdl = false): boolean {
  const text = sourceCode.text;
  // The tokens are read only for an occurrence that would pass: a caller with the text alone
  // (the codemod's pre-filter) learns that the file needs parsing only then.
  let tokens: readonly TokenLike[] | undefined | null = null;
  const isCode = (start: number): boolean => isCodeAt(text, tokens === null ? (tokens = sourceCode.ast.tokens) : tokens, start);
  const pattern = patternFor(flags);
  pattern.lastIndex = 0;
  // With `orPluginDdl`, the scan also finds `fastify`; the plugin's DDL (`mayRunPluginDdl`) is asked at the first one.
  let pluginUnasked = orPluginDdl;
  const pluginDdlAt = (name: string): boolean => {
    if (!pluginUnasked || !name.includes(PLUGIN_NAME)) return false;
    pluginUnasked = false;
    return mayRunPluginDdl(text);
  };
  let spawner: boolean | undefined;
  let readsFiles: boolean | undefined;
  // Most occurrences are names that are not called (`this.schema`, `mongodb`): each is rejected by
  // what follows it before anything costlier is asked.
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const at = match.index;
    // `.sync({ force: true })`: a call its options tell, on any receiver.
    if (match[0].charCodeAt(0) === 46) {
      if ((isOptionToldCallAt(text, at + match[0].length) || isBareNamedCallAt(text, at, at + match[0].length)) && isCode(at + 1))
        return true;
      // the name after the dot may be a longer one (`.syncIndexes(`): scan it again
      pattern.lastIndex = at + 1;
      continue;
    }
    // `fastify` in any case (a flag spelled so is a flag); the positions after its `f` are scanned again.
    if (match[0].toLowerCase() === PLUGIN_NAME && !flags.some((flag) => flag.toLowerCase() === PLUGIN_NAME)) {
      if (pluginDdlAt(match[0])) return true;
      pattern.lastIndex = at + 1;
      continue;
    }
    const stem = stemOf(match[0]);
    // A flag, wherever it is; Umzug, whose import is the evidence.
    if (stem === undefined || stem === 'umzug') return true;
    let end = at + match[0].length;
    while (isIdentifierCode(text.charCodeAt(end))) end++;
    // The rest of the name is not scanned: a `fastify` in it (`dbfastify`) is asked about here.
    if (pluginUnasked && end - at - match[0].length >= PLUGIN_NAME.length && pluginDdlAt(text.slice(at + match[0].length, end)))
      return true;
    pattern.lastIndex = end;
    if (stem === 'prisma') {
      if ((spawner ??= importsSpawner(text))) return true;
      continue;
    }
    if (isLibrarySpecifierAt(text, at, stem)) return true;
    if (stem === 'typeorm') continue;
    // `models.sequelize.sync()` on the client a project module builds (the import is there).
    if (stem === 'sequelize') {
      if (isMigratorReceiverAt(text, end, SEQUELIZE_METHODS) && isCode(at)) return true;
      continue;
    }
    // A migrator's CLI command in a string (`exec('npx sequelize db:migrate')`), in a file that spawns processes.
    if (stem === 'migrat' && (spawner ??= importsSpawner(text)) && isStringAt(text, (tokens ??= sourceCode.ast.tokens), at)) return true;
    const open = callOpenAt(text, end);
    // Option names hold `synchronize` or `migrat`; receivers `migrat` or are `Schema`.
    const schemaReceiver = stem === 'schema' && end === at + 6 && text.charCodeAt(at) === 83;
    let start = at;
    while (start > 0 && isIdentifierCode(text.charCodeAt(start - 1))) start--;
    const name = text.slice(start, end);
    // A class named for migrations (`class MigrationService`, `class SchemaMigrator`) may run itself from a start hook (`this.run()`).
    if (open < 0 && /migrat/i.test(name) && wordBefore(text, start) === 'class' && isCode(start)) return true;
    // A loop over migration files (`for (const file of migrationFiles)`, `migrationFiles.forEach(`) in a file that reads files: a hand-written runner (`sqlFileRuns`).
    if (stem === 'migrat' && isLoopOverAt(text, start, end) && (readsFiles ??= text.includes('readFile')) && isCode(start)) return true;
    if (open < 0 && stem !== 'synchronize' && stem !== 'migrat' && !schemaReceiver) continue;
    // `Model.syncIndexes()`: the method's own name says it (its entry's evidence is checked later).
    if (CALLED_METHODS.includes(name) && isCode(start)) return true;
    if (SCHEMA_WRITE_OPTIONS.includes(name) && (open >= 0 || isKeyOrCallAt(text, end)) && isCode(start)) return true;
    if (open >= 0 && CROSS_FILE_CANDIDATE.test(name) && isCallAt(text, start, end, open) && isCode(start)) return true;
    if ((stem === 'migrat' || name === 'Schema') && isMigratorReceiverAt(text, end) && isCode(start)) return true;
  }
  return false;
}
