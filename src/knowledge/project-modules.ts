// How an import names a module of the project itself rather than a package: a relative path, one
// of the path aliases projects commonly configure (`@/`, `~/` or `~lib/`, Node's `#` subpath imports), or a
// path from the project's `baseUrl` (`src/…`).

/** Prefixes of an import specifier that name a module of the project (`.` and `..` alone too). */
export const PROJECT_MODULE_PREFIXES: readonly string[] = ['./', '../', '@/', '~', '#', 'src/'];
export const PROJECT_MODULE_DIRECTORIES: readonly string[] = ['.', '..'];

/** `./jobs`, `../services/x`, `@/lib/x`, `~/x`, `~lib/x` (no package name starts with `~`), `#jobs`, `src/models/x`: a module of the project, not a package. */
export function isProjectModuleSpecifier(specifier: string | undefined): boolean {
  if (specifier === undefined) return false;
  return PROJECT_MODULE_DIRECTORIES.includes(specifier) || PROJECT_MODULE_PREFIXES.some((prefix) => specifier.startsWith(prefix));
}

/** Folders of a project that hold its data models (`../database/models/giveaway`): a binding imported from one is a model. */
export const MODEL_DIRECTORIES: readonly string[] = ['models', 'model'];
