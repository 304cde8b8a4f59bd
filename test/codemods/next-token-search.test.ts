// The narrowed start of typescript-estree's next-token search: the same token as the walk from the
// source file, for every `export` keyword and every `<…>` list, and a number of steps that does
// not grow with the statements before it (counted, not timed).
import { describe, expect, test } from 'vitest';
import ts from 'typescript';
import { narrowedFindNextToken, statementHolding, type FindNextToken } from '../../codemods/engine/next-token-search.js';
import { runDetection } from '../../codemods/engine/run-detection.js';

/** typescript-estree's walk (node-utils `findNextToken`), counting the children it looks at. */
function walkFrom(counter: { steps: number }): FindNextToken {
  return (previous, parent, ast) => {
    const source = ast as ts.SourceFile;
    const find = (node: ts.Node): ts.Node | undefined => {
      if (node.kind >= ts.SyntaxKind.FirstToken && node.kind <= ts.SyntaxKind.LastToken && node.pos === previous.end) return node;
      for (const child of node.getChildren(source)) {
        counter.steps += 1;
        const dive = (child.pos <= previous.pos && child.end > previous.end) || child.pos === previous.end;
        const hasTokens = child.kind === ts.SyntaxKind.EndOfFileToken ? false : child.getWidth(source) !== 0;
        const found = dive && hasTokens ? find(child) : undefined;
        if (found) return found;
      }
      return undefined;
    };
    return find(parent as ts.Node);
  };
}

const SOURCE = `import { Cron } from '@nestjs/schedule';
// a comment before an export
export const a: Map<string, Array<number>> = new Map<string, Array<number>>();
/** doc */ export default class Jobs<T extends object> {
  @Cron('0 * * * *') run(): Promise<void> { return f<T>(); }
}
@Injectable()
export class Decorated {}
export declare function d<T>(x: T): T;
export namespace Space { export const inner = g<number>(); }
export type Pair<A, B> = [A, B];
export async function* h<T>() {}
`;

/** Every `export` and `default` keyword and every type argument or parameter list in the file. */
function asked(source: ts.SourceFile): ts.TextRange[] {
  const found: ts.TextRange[] = [];
  const visit = (node: ts.Node): void => {
    if (node.kind === ts.SyntaxKind.ExportKeyword || node.kind === ts.SyntaxKind.DefaultKeyword) found.push(node);
    const lists = node as { typeArguments?: ts.NodeArray<ts.Node>; typeParameters?: ts.NodeArray<ts.Node> };
    if (lists.typeArguments) found.push(lists.typeArguments);
    if (lists.typeParameters) found.push(lists.typeParameters);
    ts.forEachChild(node, visit, (nodes) => nodes.forEach(visit));
    for (const modifier of ts.canHaveModifiers(node) ? (ts.getModifiers(node) ?? []) : []) visit(modifier);
  };
  visit(source);
  return found;
}

describe('next-token search from the statement holding the token', () => {
  test('answers the token the walk from the source file answers, for every export keyword and <…> list', () => {
    const source = ts.createSourceFile('jobs.ts', SOURCE, ts.ScriptTarget.Latest, true);
    const walk = walkFrom({ steps: 0 });
    const narrowed = narrowedFindNextToken(walk);
    const previous = asked(source);
    expect(previous.length).toBeGreaterThan(15);
    for (const p of previous) {
      const expected = walk(p, source, source) as ts.Node | undefined;
      expect(expected).toBeDefined();
      expect(narrowed(p, source, source)).toBe(expected);
    }
    // A search that starts below the source file is left alone.
    const statement = source.statements[2]!;
    expect(narrowed(previous[0]!, statement, source)).toBe(walk(previous[0]!, statement, source));
  });

  test('a token between statements, or outside every statement, keeps the walk from the source file', () => {
    const statements = [
      { pos: 0, end: 10 },
      { pos: 10, end: 20 },
    ];
    expect(statementHolding(statements, { pos: 12, end: 14 })).toBe(statements[1]);
    expect(statementHolding(statements, { pos: 12, end: 20 })).toBeUndefined();
    expect(statementHolding(statements, { pos: 25, end: 26 })).toBeUndefined();
    expect(statementHolding([], { pos: 0, end: 1 })).toBeUndefined();
  });

  test('the steps for the last export do not grow with the statements before it', () => {
    const steps = (statements: number): { walk: number; narrowed: number } => {
      const text = Array.from({ length: statements }, (_, i) => `export const v${i} = new Map<string, number>();\n`).join('');
      const source = ts.createSourceFile('many.ts', text, ts.ScriptTarget.Latest, true);
      const last = asked(source)
        .filter((p) => 'kind' in p && p.kind === ts.SyntaxKind.ExportKeyword)
        .pop()!;
      const walked = { steps: 0 };
      walkFrom(walked)(last, source, source);
      const narrowedCount = { steps: 0 };
      narrowedFindNextToken(walkFrom(narrowedCount))(last, source, source);
      return { walk: walked.steps, narrowed: narrowedCount.steps };
    };
    const small = steps(100);
    const big = steps(2000);
    expect(big.walk).toBeGreaterThan(2000);
    expect(big.narrowed).toBe(small.narrowed);
    expect(big.narrowed).toBeLessThan(10);
  });

  test('detection narrows the parser it runs: each exported declaration starts at the token after `export`', () => {
    const { ast } = runDetection('/project/jobs.ts', SOURCE, [], { packageType: 'module' });
    const starts = ast.body.flatMap((s) =>
      s.type === 'ExportNamedDeclaration' || s.type === 'ExportDefaultDeclaration' ? [[s.range[0], s.declaration!.range[0]]] : [],
    );
    const at = (text: string): number => SOURCE.indexOf(text);
    expect(starts).toEqual([
      [at('export const a'), at('const a')],
      [at('export default'), at('class Jobs')],
      [at('export class Decorated'), at('class Decorated')],
      [at('export declare'), at('declare function')],
      [at('export namespace'), at('namespace Space')],
      [at('export type'), at('type Pair')],
      [at('export async'), at('async function*')],
    ]);
  });
});
