// A name imported or required from the project's models folder (`const giveaways =
// require('../database/models/giveaways')`, `import tickets from '@/models/ticket'`): a data model,
// whatever its case — `await giveaways.find({ ended: false })` reads rows from the shared store as
// `await Giveaway.find(…)` does (work-intent.ts, `callsModelClass`).
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { isProjectModuleSpecifier, MODEL_DIRECTORIES } from '../../src/knowledge/project-modules.js';
import { importSource } from './in-memory-values.js';

/** Whether `node` is a name bound to a module under the project's models folder. */
export function isProjectModelBinding(sourceCode: SourceCode, node: TSESTree.Node): boolean {
  if (node.type !== 'Identifier') return false;
  const source = importSource(sourceCode, node);
  return isProjectModuleSpecifier(source) && source!.split('/').some((segment) => MODEL_DIRECTORIES.includes(segment));
}
