// typescript-estree (8.x) finds the token after a top-level `export` keyword, and the `>` after a
// type argument or parameter list, with `findNextToken(previous, sourceFile, sourceFile)`: a walk
// down from the source file that reads its statements one by one from the first. One scan of the
// statements per exported declaration and per `<…>` made a generated file quadratic (on a 5 MB
// file, 8 % of the codemod's time and growing with the size). The walk always enters the one
// statement holding `previous` — statements do not overlap, every earlier one ends before it and
// every later one starts after it — so starting the same walk at that statement answers the same
// token. This narrows the start, once per process, for the parser the codemod runs; when the
// library is laid out otherwise it is left as it is. Lint runs the user's parser, untouched.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** What the search reads of a TypeScript node: its extent (with leading trivia, as `pos`). */
export interface TsExtent {
  pos: number;
  end: number;
}

export type FindNextToken = (previous: TsExtent, parent: unknown, ast: unknown) => unknown;

/** The statement of `statements` (in source order) that holds `previous` with room after it, or undefined. */
export function statementHolding(statements: readonly TsExtent[], previous: TsExtent): TsExtent | undefined {
  let low = 0;
  let high = statements.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >>> 1;
    if (statements[middle]!.pos <= previous.pos) low = middle;
    else high = middle - 1;
  }
  const statement = statements[low];
  return statement && statement.pos <= previous.pos && previous.end < statement.end ? statement : undefined;
}

/** `original`, started at the top-level statement holding `previous` when asked to start at the source file. */
export function narrowedFindNextToken(original: FindNextToken): FindNextToken {
  return (previous, parent, ast) => {
    const statements = parent === ast ? (ast as { statements?: unknown }).statements : undefined;
    const holder = Array.isArray(statements) ? statementHolding(statements as TsExtent[], previous) : undefined;
    return original(previous, holder ?? parent, ast);
  };
}

let narrowed = false;

/** Narrows typescript-estree's `findNextToken` (the copy `@typescript-eslint/parser` loads). */
export function narrowNextTokenSearch(): void {
  if (narrowed) return;
  narrowed = true;
  try {
    const here = createRequire(import.meta.url);
    const parser = here.resolve('@typescript-eslint/parser');
    const estree = createRequire(parser).resolve('@typescript-eslint/typescript-estree');
    const utils = createRequire(estree)(join(dirname(estree), 'node-utils.js')) as { findNextToken?: unknown };
    if (typeof utils.findNextToken === 'function' && utils.findNextToken.length === 3)
      utils.findNextToken = narrowedFindNextToken(utils.findNextToken as FindNextToken);
  } catch {
    // Another layout or version: the library's own walk stays.
  }
}
