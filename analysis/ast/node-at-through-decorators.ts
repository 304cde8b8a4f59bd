// `nodeAt` that also finds what sits in the decorator of an exported class: in `@Module({ … })
// export class AppModule {}` the decorator comes before `export`, outside the range of the export
// statement and of the class, so a walk down by ranges (and ESLint's `getNodeByRangeIndex`) stops
// at the program. A rule that finds its candidates by text (a NestJS module's factory calling
// `dataSource.runMigrations()`) looks there too.
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { deepestNodeUnder, nodeAt } from './node-at.js';

/** The decorator holding `offset` of the class the first program statement starting after `offset` exports. */
function exportedClassDecoratorAt(body: readonly TSESTree.ProgramStatement[], offset: number): TSESTree.Decorator | undefined {
  let low = 0;
  let high = body.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (body[middle]!.range[0] <= offset) low = middle + 1;
    else high = middle;
  }
  const statement = body[low];
  if (statement?.type !== 'ExportNamedDeclaration' && statement?.type !== 'ExportDefaultDeclaration') return undefined;
  const declaration = statement.declaration as { decorators?: readonly TSESTree.Decorator[] } | null | undefined;
  return declaration?.decorators?.find((decorator) => decorator.range[0] <= offset && offset < decorator.range[1]);
}

/** The deepest node whose range holds `offset`, the decorators of exported classes included. */
export function nodeAtThroughDecorators(sourceCode: SourceCode, offset: number): TSESTree.Node | null {
  const node = nodeAt(sourceCode, offset);
  if (node?.type !== 'Program') return node;
  const decorator = exportedClassDecoratorAt(node.body, offset);
  return decorator ? deepestNodeUnder(sourceCode, decorator, offset) : node;
}
