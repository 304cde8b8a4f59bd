// A cheap text test run before any AST work: whether a file can schedule work the way
// `no-unguarded-schedule` recognises. The rule and the `guard-schedules` codemod share it, so both
// skip the same files. The names come from the scheduler catalogue (src/knowledge/schedulers.ts).
//
// The rule only finds a scheduler through its origin, so the test asks for what that origin
// leaves in the text rather than for a word:
//   - a timer global (`setInterval`, `Meteor.setInterval`): the name it is called by, which every
//     use writes out (`timers.setInterval`, `{ setInterval: every }`, `setInterval as every`);
//   - a scheduler module (`node-cron`, `@nestjs/schedule`): its specifier between quotes, as the
//     import or `require` that the rule follows must write it (`cron` in a comment, `acronym`,
//     an RxJS `scheduler` do not count).
// A few `includes` of short stems that start with a rare letter come first: they are much
// cheaper than one expression with alternatives, and most files hold none of them. A stem is at
// most six characters: V8 looks for a shorter word by its first character (`memchr`), but sets up
// a skip table and scans more slowly for one of seven or more (`Interval` costs three times
// `Interv` over the same texts). Each word is looked for once: the later tests reuse the answer.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { POLL_LOOP_DELAY_NAMES, SCHEDULER_MODULES, SCHEDULERS } from '../../src/knowledge/schedulers.js';
import { POLL_LOOP_PAUSE_WORDS } from '../../src/knowledge/poll-pauses.js';
import { FRAMEWORK_CRON_CALL } from '../../src/knowledge/framework-crons.js';
import { HANDED_CRON_CALL } from '../../src/knowledge/handed-schedulers.js';
import { OWN_CRON_REGISTRATION, PROVIDED_TIMER_CALL } from '../../src/knowledge/own-schedulers.js';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { holdsQuoted, QUOTES } from '../../analysis/source/quoted-word.js';
import { ENDLESS_LOOP_HEAD } from '../../analysis/scheduled-work/poll-loops.js';
import { CLIENT_TIMER_MODULES } from '../../analysis/scheduled-work/client-timers.js';
import { CLIENT_CACHE_READ } from '../../src/knowledge/client-timers.js';
import { moduleSpecifiers } from '../../analysis/imports/imported-references.js';

/** Globals (`setInterval`), by the name a use calls (the last of their path). */
const TIMER_NAMES = [...new Set(SCHEDULERS.filter((entry) => entry.modules.includes(null)).map((entry) => entry.path.at(-1)!))];
/** Modules a scheduler is imported from, other than those of the timers. */
const MODULE_NAMES = [
  ...new Set(
    SCHEDULERS.filter((entry) => !entry.modules.includes(null) && !TIMER_NAMES.includes(entry.path.at(-1)!)).flatMap((entry) =>
      entry.modules.filter((m): m is string => m !== null),
    ),
  ),
];
/** The longest stem that `includes` still finds by its first character. */
const STEM_LENGTH = 6;
/** A timer name from its first capital (`Timeou` of `setTimeout`): a rarer first letter, a faster `includes`. */
const TIMER_STEMS = TIMER_NAMES.map((name) => {
  const from = Math.max(0, name.search(/[A-Z]/));
  return name.slice(from, from + STEM_LENGTH);
});
/** The stem of `setInterval`, which a schedule decorator's name (`@EveryInterval(…)`) holds too. */
const INTERVAL_STEM = 'Interv';
/** Short pieces most module names contain (`hedul` of `schedule`, `scheduler`); a module holding none is a stem of its own. */
const CRON = 'cron';
const SCHEDUL = 'hedul';
const OWN_NAMES = MODULE_NAMES.filter((name) => !name.includes(CRON) && !name.includes(SCHEDUL));
/**
 * Each `includes` is a pass over the file: a name holding another (`set-interval-async/fixed`) needs no stem of its
 * own, and a name's stem is its end (`-async` of `set-interval-async`), which every name holding it holds too.
 */
const OWN_STEMS = OWN_NAMES.filter((name) => !OWN_NAMES.some((other) => other !== name && name.includes(other))).map((name) =>
  name.slice(-STEM_LENGTH),
);
/** Each stem with the module names that hold it (each name under the first stem it holds) and where in the name it stands. */
const NAMES_BY_STEM: ReadonlyArray<{ stem: string; names: ReadonlyArray<{ name: string; at: number }> }> = [
  CRON,
  SCHEDUL,
  ...OWN_STEMS,
].map((stem, i, stems) => ({
  stem,
  names: MODULE_NAMES.filter((name) => name.includes(stem) && !stems.slice(0, i).some((earlier) => name.includes(earlier))).map((name) => ({
    name,
    at: name.indexOf(stem),
  })),
}));

/**
 * Where `text` holds `stem`, whether it is part of one of `names` between quotes (`holdsQuoted`): a module's
 * name is only where its stem is, so each name is compared at the stem's places, not searched for in the text.
 */
function quotesNameAtStem(text: string, first: number, stem: string, names: ReadonlyArray<{ name: string; at: number }>): boolean {
  for (let found = first; found >= 0; found = text.indexOf(stem, found + 1))
    for (const { name, at } of names) {
      const start = found - at;
      if (
        start > 0 &&
        text.startsWith(name, start) &&
        QUOTES.includes(text[start - 1]!) &&
        QUOTES.includes(text[start + name.length] ?? '')
      )
        return true;
    }
  return false;
}

const QUOTED = 1;
const HOLDS_CRON = 2;
const HOLDS_SCHEDUL = 4;

/** Whether `text` holds a scheduler module's name between quotes (`QUOTED`), and the stems `cron` and `hedul` (flags). */
function quotesSchedulerModule(text: string): number {
  let seen = 0;
  for (const { stem, names } of NAMES_BY_STEM) {
    const first = text.indexOf(stem);
    if (first < 0) continue;
    if (quotesNameAtStem(text, first, stem, names)) return QUOTED;
    if (stem === CRON) seen |= HOLDS_CRON;
    else if (stem === SCHEDUL) seen |= HOLDS_SCHEDUL;
  }
  return seen;
}

/** Whether `text` can hold a schedule the rule recognises: a timer's name, a scheduler module's specifier, or a poll loop. */
export function mentionsSchedule(text: string): boolean {
  for (let i = 0; i < TIMER_NAMES.length; i++) if (text.includes(TIMER_STEMS[i]!) && text.includes(TIMER_NAMES[i]!)) return true;
  const seen = quotesSchedulerModule(text);
  if (seen === QUOTED) return true;
  return mentionsPollLoop(text) || mentionsOwnScheduling(text, (seen & HOLDS_CRON) !== 0, (seen & HOLDS_SCHEDUL) !== 0);
}

/** A decorator of the project named for a schedule (`@NightlyOnce(…)`, `@NightlySchedule(…)`), wrapping a scheduler's. */
const SCHEDULE_DECORATOR = /@[\w$]*(?:[Cc]ron|[Ss]chedul|Interval)[\w$]*\s*\(/;

/** A job built from a project class named for its cron (`new NightlyCronJob(expr, name, task)`), in a file that says `cron`. */
const CONSTRUCTED_CRON_JOB = /\bnew\s+[\w$]*Cron[\w$]*\s*\(/;

/**
 * A job handed to a framework's cron service (`strapi.cron.add({ … })`), a job built from a project class named for its
 * cron, a cron module handed in as a parameter (`cron.schedule('0 * * * *', …)`), or a method under a decorator of the project named for a schedule: no scheduler module need be imported for
 * any. Every decorator the expression matches holds `cron`, `Cron`, `hedul` (of `[Ss]chedul`) or `Interv`: asked, once
 * each, before the expression (of the files that hold an `@`, four in ten). `cron` and `schedul`: whether the text
 * holds `cron` and `hedul`, when known.
 */
function mentionsOwnScheduling(text: string, cron = text.includes(CRON), schedul = text.includes(SCHEDUL)): boolean {
  if (cron && (FRAMEWORK_CRON_CALL.test(text) || CONSTRUCTED_CRON_JOB.test(text) || HANDED_CRON_CALL.test(text))) return true;
  // A job added to a job manager of the project's own (`jobs.add('0 * * * *', fn)`, `{ cronTime, onTick }`), in a file saying cron or schedule.
  if ((cron || schedul) && OWN_CRON_REGISTRATION.test(text)) return true;
  return text.includes('@') && (cron || schedul || text.includes(INTERVAL_STEM) || text.includes('Cron')) && SCHEDULE_DECORATOR.test(text);
}

const PAUSE_WORDS = POLL_LOOP_PAUSE_WORDS.join('|');
/**
 * An awaited pause by one of the names a poll loop's pause is called (`await sleep(ms)`,
 * `await utils.delay(ms)`); `new Promise((r) => setTimeout(r, ms))` names a timer already.
 */
const AWAITED_PAUSE = new RegExp(
  String.raw`\bawait\s+(?:[\w$]+\s*\.\s*)?(?:${POLL_LOOP_DELAY_NAMES.join('|')}|[\w$]*(?:${PAUSE_WORDS})[\w$]*)\s*\(`,
  'i',
);

/**
 * Whether `text` may hold an endless poll loop whose pause is an imported `sleep`/`delay` (the
 * file then names no timer): an endless loop's head and an awaited pause. `while` and `;;` are
 * looked for first, with `includes`; then the pause, which turns away nine files in ten of those
 * (the loop's head, whose `for` starts at every `f`, costs more).
 */
export function mentionsPollLoop(text: string): boolean {
  return POLL_LOOP_HEAD_WORDS.some((word) => text.includes(word)) && AWAITED_PAUSE.test(text) && ENDLESS_LOOP_HEAD.test(text);
}

/** What an endless loop's head writes (`while (true)`, `for (;;)`): one of them is in every file with a poll loop. */
export const POLL_LOOP_HEAD_WORDS: readonly string[] = ['while', ';;'];

/** What a use of a global timer goes through: its own name, or a global object (`globalThis.setInterval`). */
const TIMER_GLOBALS: ReadonlySet<string> = new Set(
  SCHEDULERS.filter((entry) => entry.modules.includes(null)).map((entry) => entry.path[0]!),
);
const GLOBAL_OBJECTS: readonly string[] = ['globalThis', 'global', 'self', 'window'];
/** The globals a configured environment declares that can reach a scheduler (their references are the variable's). */
const IMPLICIT_GLOBALS: readonly string[] = [...TIMER_GLOBALS, ...GLOBAL_OBJECTS, 'require'];
const SCHEDULER_MODULE_SET: ReadonlySet<string> = new Set(SCHEDULER_MODULES);

interface ReferenceLike {
  identifier: TSESTree.Identifier | TSESTree.JSXIdentifier;
}

/** The literal a module specifier spells, or undefined when it is computed. */
function specifier(node: TSESTree.Node | undefined): string | undefined {
  if (node?.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node?.type === 'TemplateLiteral' && node.expressions.length === 0) return node.quasis[0]?.value.cooked ?? undefined;
  return undefined;
}

/** A global reference that can reach a scheduler: a timer, a global object not read for another name, `require` of a scheduler module. */
function reachesScheduler(reference: ReferenceLike): boolean {
  const identifier = reference.identifier;
  const parent = identifier.parent;
  if (TIMER_GLOBALS.has(identifier.name)) return true;
  if (GLOBAL_OBJECTS.includes(identifier.name)) {
    const name = parent?.type === 'MemberExpression' && parent.object === identifier ? memberPropertyName(parent) : undefined;
    return name === undefined || TIMER_GLOBALS.has(name);
  }
  if (identifier.name !== 'require') return false;
  if (parent?.type === 'CallExpression' && parent.callee === identifier) {
    const module = specifier(parent.arguments[0]);
    return module === undefined || SCHEDULER_MODULE_SET.has(module);
  }
  // `typeof require`, `require.resolve(…)` are not a require; `const load = require` may be one.
  return !(parent?.type === 'UnaryExpression' || (parent?.type === 'MemberExpression' && parent.object === identifier));
}

/** An import or top-level `require` of a library whose client owns timers. */
function importsClientLibrary(program: TSESTree.Program): boolean {
  const modules = moduleSpecifiers(program);
  return CLIENT_TIMER_MODULES.some((module) => modules.has(module));
}

/** An import, re-export or `import x = require(…)` of a scheduler module at the top of the file. */
function importsScheduler(program: TSESTree.Program): boolean {
  for (const statement of program.body) {
    let source: TSESTree.Node | undefined | null;
    if (statement.type === 'ImportDeclaration' || statement.type === 'ExportAllDeclaration' || statement.type === 'ExportNamedDeclaration')
      source = statement.source;
    else if (statement.type === 'TSImportEqualsDeclaration' && statement.moduleReference.type === 'TSExternalModuleReference')
      source = statement.moduleReference.expression;
    if (!source) continue;
    const module = specifier(source);
    if (module === undefined || SCHEDULER_MODULE_SET.has(module)) return true;
  }
  return false;
}

/**
 * The rule's test on a parsed file, before any AST walk: whether the file references a timer
 * global, or imports or requires a scheduler module — where the rule's reference tracking can
 * start. Read from the scope analysis ESLint has already done (the unresolved references and the
 * declared globals) and the file's top-level statements: no scan of the text at all.
 */
export function mayScheduleIn(sourceCode: Readonly<TSESLint.SourceCode>): boolean {
  const globalScope = sourceCode.scopeManager?.globalScope;
  if (!globalScope) return mentionsSchedule(sourceCode.text);
  // The tree's answers first (most files this far reference a timer global): each text test below is a pass over the text.
  if (importsScheduler(sourceCode.ast)) return true;
  for (const reference of globalScope.through) if (reachesScheduler(reference)) return true;
  for (const name of IMPLICIT_GLOBALS) {
    const variable = globalScope.set.get(name);
    if (variable && variable.defs.length === 0 && variable.references.some(reachesScheduler)) return true;
  }
  if (mentionsPollLoop(sourceCode.text) || mentionsOwnScheduling(sourceCode.text)) return true;
  // `this.timers.setTimeout(…)` of an injected timer provider: a member call, no global referenced.
  if (PROVIDED_TIMER_CALL.test(sourceCode.text)) return true;
  // `client.setInterval(…)` of a discord.js client: the library's import is where it starts, or a read of its managers' caches.
  if (CLIENT_TIMER_MODULES.some((module) => holdsQuoted(sourceCode.text, module)) && importsClientLibrary(sourceCode.ast)) return true;
  return CLIENT_CACHE_READ.test(sourceCode.text);
}
