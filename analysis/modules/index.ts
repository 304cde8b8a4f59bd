// Module summaries: follow the code across files of the same project. See docs/analysis.md.
export { defineFunctionFact, MAX_FACT_DEPTH, type FollowCall } from './function-facts.js';
export { factFollower } from './fact-follower.js';
export {
  projectFunctionIn,
  projectFunctionOf,
  projectValueOf,
  classMethod,
  exportedBinding,
  type ProjectFunction,
} from './project-functions.js';
export {
  clearProjectModules,
  importedProjectModule,
  lintedModuleOf,
  projectModuleAt,
  projectModuleCount,
  type ProjectModule,
} from './project-module.js';
export { clearResolutionCaches, resolveProjectSpecifier } from './resolve-specifier.js';
export { prismaOnHostDatabase, prismaProviderOf } from './prisma-schema.js';

import type { DetectContext } from '../detect-context.js';
import { importedProjectModule, lintedModuleOf, type ProjectModule } from './project-module.js';

/** The project module `specifier` names from the linted file, or undefined. */
export function projectModuleOf(context: DetectContext, specifier: string): ProjectModule | undefined {
  try {
    return importedProjectModule(lintedModuleOf(context), specifier);
  } catch {
    return undefined;
  }
}
