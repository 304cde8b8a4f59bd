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

/** A file named for an entity or model (`./account.entity`, `../user.model.js`): it declares a persisted row's class. */
const ROW_TYPE_FILE = /(?:^|[/.])[\w-]+\.(?:entity|model)(?:\.[cm]?[jt]s)?$/i;
/** Prisma's generated client: its model types (`User`, `Order`) are the rows it reads. */
const GENERATED_ROW_TYPES: readonly string[] = ['@prisma/client'];
/** …also generated into the project (the `prisma-client` generator's `output`: `../generated/prisma/client`). */
const GENERATED_PRISMA_CLIENT = /(?:^|\/)generated\/prisma(?:\/client)?(?:\/index)?(?:\.[cm]?[jt]s)?$/;

/**
 * Whether a type imported from `specifier` is a persisted row (an entity or model class, a Prisma
 * model): a data-access folder of the project, a file named for an entity or model, Prisma's client.
 */
export function declaresRowTypes(specifier: string): boolean {
  return (
    isModelModule(specifier) ||
    (isProjectModuleSpecifier(specifier) && ROW_TYPE_FILE.test(specifier)) ||
    GENERATED_ROW_TYPES.includes(specifier) ||
    (isProjectModuleSpecifier(specifier) && GENERATED_PRISMA_CLIENT.test(specifier))
  );
}
