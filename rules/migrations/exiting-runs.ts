// A schema write inside a function whose own run ends the process when it succeeds (`…; await
// mongoose.disconnect(); process.exit(0);` as a statement of its body or of its `try` block): that
// function is a command's run — a script someone starts, or a CLI entry imports and calls — since a
// server that called it would stop serving. Only a successful exit counts: `process.exit(1)` is how
// servers fail at start-up too (one-shot-run.ts keeps the same line for whole files); and a function that also
// starts a server (`app.listen(…)`, `SERVER_START`) is a start, whatever it does after.
import type { TSESTree } from '@typescript-eslint/utils';
import { endsRunOnSuccess } from './one-shot-run.js';
import { isFunctionNode } from '../../analysis/sql/enclosing-function.js';
import { SERVER_START } from '../../src/knowledge/file-conventions.js';

/** Whether `node` runs inside a function whose body ends the process once its run succeeds. */
function inRunThatExits(node: TSESTree.Node, text: string): boolean {
  for (let at: TSESTree.Node | undefined = node.parent; at; at = at.parent) {
    if (!isFunctionNode(at)) continue;
    const body = at.body;
    if (body?.type !== 'BlockStatement' || !body.body.some(endsRunOnSuccess)) continue;
    return !SERVER_START.test(text.slice(body.range[0], body.range[1]));
  }
  return false;
}

/** `report`, silent for migrator calls inside a function whose run ends the process (`inRunThatExits`). */
export function outsideExitingRuns<Report extends (descriptor: never) => void>(text: string, report: Report): Report {
  return ((descriptor: { messageId: string; node: TSESTree.Node }) => {
    if (descriptor.messageId === 'schemaWriteCall' && inRunThatExits(descriptor.node, text)) return;
    report(descriptor as never);
  }) as unknown as Report;
}
