/** Whether a module specifier names the project's own code, as written: relative, or a source alias (`~/lib/db`, `@/db`, `#db`). */
export const isProjectSpecifier = (specifier: string): boolean => /^(?:\.{1,2}\/|~\/|@\/|#)/.test(specifier);
