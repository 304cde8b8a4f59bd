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

const has = (text: string, words: readonly string[]): boolean => words.some((word) => text.includes(word));

function viaWord(method: SchemaWriteMethod): string | undefined {
  const via = method.via;
  if (!via) return undefined;
  return 'property' in via ? via.property : 'call' in via ? via.call : via.identifier;
}

/** A method entry can only match when its method, its `via` name and a string evidence module all appear. */
function methodCanMatch(method: SchemaWriteMethod, text: string): boolean {
  if (!has(text, method.methods)) return false;
  const via = viaWord(method);
  if (via !== undefined && !text.includes(via)) return false;
  const evidence = method.evidence;
  if (!evidence || evidence.some((pattern) => typeof pattern !== 'string')) return true;
  return has(text, evidence as readonly string[]);
}

/** Module specifiers of the catalogue's functions; a pattern module falls back to the function's name. */
const FUNCTION_WORDS: readonly string[] = SCHEMA_WRITE_FUNCTIONS.flatMap((fn) => (Array.isArray(fn.modules) ? fn.modules : fn.path.slice(0, 1)));
/** `prisma migrate deploy` / `prisma db push` (`prismaSchemaCommand`): the command names its tool. */
const COMMAND_WORDS: readonly string[] = ['prisma'];

/** Whether `text` mentions anything `no-in-app-migrations` could report (`flags`: the migration flag settings). */
export function mentionsSchemaWrite(text: string, flags: readonly string[]): boolean {
  return (
    has(text, SCHEMA_WRITE_OPTIONS) ||
    has(text, FUNCTION_WORDS) ||
    has(text, COMMAND_WORDS) ||
    has(text, flags) ||
    SCHEMA_WRITE_METHODS.some((method) => methodCanMatch(method, text))
  );
}
