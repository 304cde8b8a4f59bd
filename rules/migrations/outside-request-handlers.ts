// A migration run inside a request handler (`fastify.post('/migrate/fleet', …)`, `@Post()`, a
// Next.js route export, a pages-router API route, a `(req, res)` handler a controllers module
// exports) runs when that request comes, once, on the replica that took it: an operator's or a
// tenant-creation endpoint, not a path every replica takes as it starts. The same notion of a
// request handler as `runsPerRequest` (analysis/request-handler-around.ts).
import type { TSESTree } from '@typescript-eslint/utils';
import { servesRequest } from '../../analysis/request-handler-around.js';
import type { DetectContext } from '../utils/create-rule.js';

/** `report`, silent for migrator calls and commands inside a request handler. */
export function outsideRequestHandlers<Report extends (descriptor: never) => void>(context: DetectContext, report: Report): Report {
  return ((descriptor: { messageId: string; node: TSESTree.Node }) => {
    const call = descriptor.messageId === 'schemaWriteCall' || descriptor.messageId === 'schemaWriteCommand';
    if (call && servesRequest(context, descriptor.node)) return;
    report(descriptor as never);
  }) as unknown as Report;
}
