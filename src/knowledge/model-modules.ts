// Where a project keeps its data-access modules: a folder named for models, entities, repositories
// or data-access objects (`../../models/user/index.js`, `@/repositories/orders`, `./dao/account`).
// A name imported from one is a model (or a repository) of the project: its methods read and write
// rows, whatever library they use inside.
import { isProjectModuleSpecifier } from './project-modules.js';

/** A path segment naming a data-access folder. */
const MODEL_FOLDER = /(?:^|\/)(?:models?|entities|repositor(?:y|ies)|daos?)(?:\/|$)/i;

/** Whether `specifier` (an import's source) is a project module inside a data-access folder. */
export function isModelModule(specifier: string): boolean {
  return isProjectModuleSpecifier(specifier) && MODEL_FOLDER.test(specifier);
}
