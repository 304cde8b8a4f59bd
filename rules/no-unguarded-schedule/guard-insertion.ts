// The one implementation of "make this work begin with a guard": the edits that put a statement
// first in a work function (or a `for await` loop body) and make the function async where needed.
// The rule's suggestion and the `guard-schedules` codemod both apply these edits, so an ESLint
// suggestion and a codemod run produce the same text.
import type { TSESTree } from '@typescript-eslint/utils';
import type { FunctionLike } from '../../analysis/scheduled-work/work-function.js';

/** Replace `text[range[0], range[1])` with `text`. */
export interface RangeEdit {
  range: [number, number];
  text: string;
}

/** How inserted code should look in this file. */
export interface InsertionStyle {
  semicolons: boolean;
  eol: '\n' | '\r\n';
  /** One level of indentation. */
  indentUnit: string;
}

/** Where the guard goes: the work function, or the loop body when the work is a `for await` loop. */
export interface GuardTarget {
  workFunction: FunctionLike | undefined;
  loopBody?: TSESTree.BlockStatement;
  /** The class member when the work is a method (`async` goes before its key). */
  member?: TSESTree.MethodDefinition | TSESTree.PropertyDefinition;
  /** A block of the work function to put the guard in instead of its body (the `try` of a loop that reschedules in `finally`). */
  guardBlock?: TSESTree.BlockStatement;
}

type MethodLike = TSESTree.MethodDefinition | TSESTree.Property | TSESTree.TSAbstractMethodDefinition;

/** The method/property definition a function expression is the value of, if it is one. */
function methodOf(fn: FunctionLike): MethodLike | undefined {
  const parent = fn.parent;
  if (!parent || fn.type !== 'FunctionExpression') return undefined;
  if (parent.type === 'MethodDefinition' || parent.type === 'TSAbstractMethodDefinition') return parent;
  if (parent.type === 'Property' && (parent.method || parent.kind !== 'init')) return parent;
  return undefined;
}

/** Why this work function cannot take a leading guard, or undefined when it can. */
export function unguardableReason(fn: FunctionLike): string | undefined {
  if (fn.generator) return 'the work function is a generator; guard its caller by hand';
  const method = methodOf(fn);
  if (method && (method.kind === 'get' || method.kind === 'set' || method.kind === 'constructor')) {
    return `a ${method.kind === 'constructor' ? 'constructor' : `${method.kind}ter`} cannot be made async; move the work into a method and guard that`;
  }
  if (fn.body === null || fn.body === undefined) return 'the work function has no body here (an overload or declaration)';
  return undefined;
}

let lastStyle: { text: string; style: Readonly<InsertionStyle> } | undefined;

/** The style of `text` when nobody measured it (the rule's suggestions): semicolons, its line ending, two spaces. */
export function defaultInsertionStyle(text: string): InsertionStyle {
  // Asked once per finding: the last text's answer is kept, or a big file is searched end to end thousands of times.
  if (lastStyle?.text !== text)
    lastStyle = { text, style: { semicolons: true, eol: text.includes('\r\n') ? '\r\n' : '\n', indentUnit: '  ' } };
  return lastStyle.style;
}

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

function indentationAt(text: string, offset: number): string {
  return /^[ \t]*/.exec(text.slice(lineStart(text, offset)))?.[0] ?? '';
}

function isPromiseType(node: TSESTree.TypeNode): boolean {
  return node.type === 'TSTypeReference' && node.typeName.type === 'Identifier' && node.typeName.name === 'Promise';
}

/** `async ` where the function needs it, and `Promise<T>` around an explicit return type. */
function asyncEdits(fn: FunctionLike, text: string): RangeEdit[] {
  if (fn.async) return [];
  const edits: RangeEdit[] = [];
  const method = methodOf(fn);
  if (method) {
    const keyStart = method.computed ? text.lastIndexOf('[', method.key.range[0]) : method.key.range[0];
    edits.push({ range: [keyStart, keyStart], text: 'async ' });
  } else {
    edits.push({ range: [fn.range[0], fn.range[0]], text: 'async ' });
  }
  const returnType = fn.returnType?.typeAnnotation;
  if (returnType && !isPromiseType(returnType)) {
    edits.push({ range: returnType.range, text: `Promise<${text.slice(returnType.range[0], returnType.range[1])}>` });
  }
  return edits;
}

/** The statement first in a block: after `{` on its line (a comment after `{` stays put), or inline. */
function blockEdits(block: TSESTree.BlockStatement, statement: string, text: string, style: InsertionStyle): RangeEdit[] {
  const open = block.range[0];
  const first = block.body[0];
  if (!first) return [{ range: [open + 1, open + 1], text: ` ${statement} ` }];
  if (lineStart(text, first.range[0]) === lineStart(text, open))
    return [{ range: [first.range[0], first.range[0]], text: `${statement} ` }];
  let lineEnd = text.indexOf('\n', open);
  if (lineEnd === -1) lineEnd = text.length;
  if (text[lineEnd - 1] === '\r') lineEnd -= 1;
  return [{ range: [lineEnd, lineEnd], text: `${style.eol}${indentationAt(text, first.range[0])}${statement}` }];
}

/** `() => sweep()` → `() => {⏎ guard⏎ return sweep();⏎}`: the value is still returned. */
function expressionBodyEdits(fn: FunctionLike, statement: string, text: string, style: InsertionStyle): RangeEdit[] | undefined {
  const arrow = text.lastIndexOf('=>', fn.body.range[0]);
  if (arrow < fn.range[0]) return undefined;
  let from = arrow + 2;
  while (/\s/.test(text[from] ?? '')) from += 1;
  const expression = text.slice(from, fn.range[1]);
  const indent = indentationAt(text, fn.range[0]);
  const inner = `${style.eol}${indent}${style.indentUnit}`;
  const semi = style.semicolons ? ';' : '';
  return [{ range: [from, fn.range[1]], text: `{${inner}${statement}${inner}return ${expression}${semi}${style.eol}${indent}}` }];
}

/**
 * The edits that make `target` begin with `statement` (a complete statement ending in `;`), or
 * undefined when the work cannot take a leading guard (see `unguardableReason`).
 */
export function guardInsertionEdits(
  target: GuardTarget,
  statement: string,
  text: string,
  style: InsertionStyle = defaultInsertionStyle(text),
): RangeEdit[] | undefined {
  const written = style.semicolons ? statement : statement.replace(/;$/, '');
  const fn = target.workFunction;
  if (!fn) return target.loopBody ? blockEdits(target.loopBody, written, text, style) : undefined;
  if (unguardableReason(fn) !== undefined) return undefined;
  const body = target.guardBlock
    ? blockEdits(target.guardBlock, written, text, style)
    : fn.body.type === 'BlockStatement'
      ? blockEdits(fn.body, written, text, style)
      : expressionBodyEdits(fn, written, text, style);
  return body && [...asyncEdits(fn, text), ...body];
}
