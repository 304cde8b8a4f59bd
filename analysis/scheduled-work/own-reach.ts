// Calls of scheduled work that reach nothing repeated per replica, whatever their names say: a send
// on this process's own connections or threads, a write to the one client of a stream built here,
// or a default row upserted where a read found none (the row every replica would leave). The effects
// walk (external-effects.ts) passes over them.
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { sendsOnOwnConnection } from './own-connections.js';
import { writesToOwnStream } from './own-streams.js';
import { messagesOwnThreads } from './own-thread-messages.js';
import { upsertsOnMiss } from './cache-aside-fill.js';

/** Whether `call` reaches only what is this process's own, or what every replica would leave alike (see above). */
export function reachesOnlyOwn(sourceCode: SourceCode, call: TSESTree.CallExpression): boolean {
  const own = sendsOnOwnConnection(sourceCode, call) || messagesOwnThreads(sourceCode, call) || writesToOwnStream(sourceCode, call);
  return own || upsertsOnMiss(sourceCode, call);
}
