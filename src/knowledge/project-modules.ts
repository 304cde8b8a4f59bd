// How an import names a module of the project itself rather than a package: a relative path, or
// one of the path aliases projects commonly configure (`@/`, `~/`, Node's `#` subpath imports).

/** Prefixes of an import specifier that name a module of the project (`.` and `..` alone too). */
export const PROJECT_MODULE_PREFIXES: readonly string[] = ['./', '../', '@/', '~/', '#'];
export const PROJECT_MODULE_DIRECTORIES: readonly string[] = ['.', '..'];
