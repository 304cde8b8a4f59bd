// A timer whose work redraws the terminal (`console.clear()`, `readline.cursorTo(process.stdout, 0, 0)`),
// itself or through the same-file functions it calls: a screen refreshed for someone watching a
// shell — an operator's monitor, not a service's job.
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { TERMINAL_REDRAW_CALLS } from '../../src/knowledge/terminal.js';
import { descendants } from '../sql/descendants.js';
import { resolveCallee } from './external-effects.js';
import { calleePath } from './guard-calls.js';
import type { FunctionLike } from './work-function.js';

const MAX_DEPTH = 3;

export function redrawsTerminal(sourceCode: SourceCode, fn: FunctionLike): boolean {
  const seen = new Set<FunctionLike>();
  const visit = (body: TSESTree.Node, depth: number): boolean => {
    for (const node of descendants(body, sourceCode.visitorKeys)) {
      if (node.type !== 'CallExpression') continue;
      if (TERMINAL_REDRAW_CALLS.includes(calleePath(node.callee) ?? '')) return true;
      const local = depth < MAX_DEPTH ? resolveCallee(sourceCode, node) : undefined;
      if (local && !seen.has(local) && (seen.add(local), visit(local.body, depth + 1))) return true;
    }
    return false;
  };
  return visit(fn.body, 0);
}
