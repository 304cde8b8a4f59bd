// What a program sends must not change by accident: after a file's edits, every string, template
// and JSX text token is byte-identical unless an edit removed or replaced it whole, or a transform
// declared the edit a rewrite of literal text (`TextEdit.literal`, for SQL). A marker comment is
// anchored above the statement (or class member) holding the finding, never on a line inside a
// multi-line template. A violation fails the file: nothing of it is written.
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { nodeAt } from '../../analysis/ast/node-at.js';
import { mapOffset } from './text-edits.js';
import type { TextEdit } from './transform.js';

const LITERAL_TOKENS = new Set(['String', 'Template', 'JSXText']);

export interface LiteralToken {
  start: number;
  end: number;
  value: string;
}

/** The string, template and JSX text tokens of a parsed program. */
export function literalTokens(program: TSESTree.Program): LiteralToken[] {
  return (program.tokens ?? [])
    .filter((t) => LITERAL_TOKENS.has(t.type))
    .map((t) => ({ start: t.range[0], end: t.range[1], value: t.value }));
}

export class LiteralChangedError extends Error {
  constructor(line: number, what: string) {
    super(`the rewrite would change literal text at line ${line} (${what}); file left unchanged`);
    this.name = 'LiteralChangedError';
  }
}

const lineOf = (text: string, offset: number): number => text.slice(0, offset).split('\n').length;

/**
 * Throws `LiteralChangedError` when `edits` (applied to `text`, giving a text whose literal tokens
 * are `after`) change a literal token of `before` other than whole or by a declared rewrite.
 */
export function assertLiteralsKept(
  text: string,
  before: readonly LiteralToken[],
  edits: readonly TextEdit[],
  after: readonly LiteralToken[],
): void {
  if (edits.length === 0) return;
  const afterByStart = new Map(after.map((t) => [t.start, t]));
  const sorted = [...edits].sort((a, b) => a.start - b.start);
  let e = 0;
  for (const token of before) {
    while (e < sorted.length && sorted[e]!.end < token.start) e += 1;
    let touched = false;
    for (let i = e; i < sorted.length && sorted[i]!.start <= token.end; i += 1) {
      const edit = sorted[i]!;
      const whole = edit.start <= token.start && edit.end >= token.end && edit.end > edit.start;
      const inside = edit.start < token.end && edit.end > token.start;
      const insertedWithin = edit.start === edit.end && edit.start > token.start && edit.start < token.end;
      if (!inside && !insertedWithin) continue;
      touched = true;
      if (whole || edit.literal) continue;
      throw new LiteralChangedError(lineOf(text, token.start), `an edit reaches into ${preview(token.value)}`);
    }
    if (touched) continue;
    const mapped = afterByStart.get(mapOffset(edits, token.start));
    if (!mapped || mapped.value !== token.value)
      throw new LiteralChangedError(lineOf(text, token.start), `${preview(token.value)} is no longer the same token`);
  }
}

const preview = (value: string): string => (value.length > 40 ? `${value.slice(0, 37)}…` : value).replace(/\s+/g, ' ');

// Statement lists, and the member lists a line of code can belong to (class members, object properties).
const LIST_PARENTS = new Set(['Program', 'BlockStatement', 'StaticBlock', 'SwitchCase', 'TSModuleBlock', 'ClassBody', 'ObjectExpression']);

/** Where a finding's marker goes: the start of the statement (or class member, or object property) that contains `offset`. */
export function markerAnchor(sourceCode: SourceCode, offset: number): number {
  let node: TSESTree.Node | null = nodeAt(sourceCode, offset);
  while (node?.parent && !LIST_PARENTS.has(node.parent.type)) node = node.parent;
  if (!node || node.type === 'Program') return offset;
  // Decorators belong above their member: start at the first one.
  const decorators = 'decorators' in node && Array.isArray(node.decorators) ? (node.decorators as TSESTree.Decorator[]) : [];
  return Math.min(node.range[0], ...decorators.map((d) => d.range[0]));
}

/** Whether `offset` lies strictly inside one of `tokens` (in source order, not overlapping). */
export function insideLiteral(tokens: readonly LiteralToken[], offset: number): boolean {
  let low = 0;
  let high = tokens.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const token = tokens[middle]!;
    if (offset <= token.start) high = middle - 1;
    else if (offset >= token.end) low = middle + 1;
    else return true;
  }
  return false;
}
