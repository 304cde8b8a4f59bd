// A cheap text test run before any AST work: whether a file can contain one of the schema writes
// `no-in-app-migrations` reports. Each word is derived from the catalogue in
// src/knowledge/migrators.ts (an option key, a module specifier, a `via` name, a method name, a
// flag), so a file that lacks all of them cannot produce a finding and the rule skips it.
import {
  SCHEMA_WRITE_FUNCTIONS,
  SCHEMA_WRITE_METHODS,
  SCHEMA_WRITE_OPTIONS,
  type SchemaWriteMethod,
} from '../../src/knowledge/migrators.js';

function viaWord(method: SchemaWriteMethod): string | undefined {
  const via = method.via;
  if (!via) return undefined;
  return 'property' in via ? via.property : 'call' in via ? via.call : via.identifier;
}

/** Module specifiers of the catalogue's functions; a pattern module falls back to the function's name. */
const FUNCTION_WORDS: readonly string[] = SCHEMA_WRITE_FUNCTIONS.flatMap((fn) => (Array.isArray(fn.modules) ? fn.modules : fn.path.slice(0, 1)));
/** `prisma migrate deploy` / `prisma db push` (`prismaSchemaCommand`): the command names its tool. */
const COMMAND_WORDS: readonly string[] = ['prisma'];
/**
 * One word per way to a finding that every such finding's file must contain: the option keys,
 * function modules, the command, and per method entry its `via` name, else its evidence modules,
 * else its method names. Tested first, in one pass.
 */
const ANCHOR_WORDS: readonly string[] = [
  ...SCHEMA_WRITE_OPTIONS,
  ...FUNCTION_WORDS,
  ...COMMAND_WORDS,
  ...SCHEMA_WRITE_METHODS.flatMap((method) => {
    const via = viaWord(method);
    if (via !== undefined) return [via];
    const evidence = method.evidence ?? [];
    return evidence.length > 0 && evidence.every((e) => typeof e === 'string') ? (evidence as string[]) : method.methods;
  }),
];

const escape = (word: string): string => word.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const anchors = new Map<string, RegExp>();
function anchorsFor(flags: readonly string[]): RegExp {
  const key = flags.join('\0');
  let anchor = anchors.get(key);
  if (!anchor) {
    anchor = new RegExp([...new Set([...ANCHOR_WORDS, ...flags])].map(escape).join('|'));
    anchors.set(key, anchor);
  }
  return anchor;
}

/** Which of `no-in-app-migrations`' checks can find anything in `text`; `undefined` when none can. */
export interface SchemaWriteMentions {
  options: boolean;
  functions: boolean;
  commands: boolean;
  flags: boolean;
  methods: boolean;
}

/** Which kinds of schema write `text` can hold (`flags`: the migration flag settings); `undefined` for none. */
export function schemaWriteMentions(text: string, flags: readonly string[]): SchemaWriteMentions | undefined {
  if (!anchorsFor(flags).test(text)) return undefined;
  const has = (words: readonly string[]): boolean => words.some((word) => text.includes(word));
  const mentions: SchemaWriteMentions = {
    options: has(SCHEMA_WRITE_OPTIONS),
    functions: has(FUNCTION_WORDS),
    commands: has(COMMAND_WORDS),
    flags: has(flags),
    // A method entry can only match when its method, its `via` name and a string evidence module all appear.
    methods: SCHEMA_WRITE_METHODS.some((method) => {
      const via = viaWord(method);
      if (via !== undefined && !text.includes(via)) return false;
      const evidence = method.evidence;
      if (evidence && evidence.every((pattern) => typeof pattern === 'string') && !has(evidence as readonly string[])) return false;
      return has(method.methods);
    }),
  };
  return Object.values(mentions).some(Boolean) ? mentions : undefined;
}
