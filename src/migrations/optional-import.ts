// Loads a library the service may or may not have installed (pg, knex, kysely…). The specifier is
// a variable so that bundlers leave it to the service's own node_modules: none of these is a
// dependency of replica-guard.
import { ReplicaGuardError } from '../errors.js';

export async function importOptional<T>(specifier: string, forWhat: string, instead = 'pass the library in the options'): Promise<T> {
  const name = specifier;
  try {
    return (await import(name)) as T;
  } catch (error) {
    throw new ReplicaGuardError(
      'MIGRATOR_MISSING',
      `${forWhat} needs the "${name}" package, which could not be loaded: install it in the service (npm i ${name
        .split('/')
        .slice(0, name.startsWith('@') ? 2 : 1)
        .join('/')}) or ${instead}`,
      { cause: error },
    );
  }
}

/** The module's default export when it is a CJS module loaded through `import()`. */
export function interop<T>(module: unknown): T {
  const m = module as { default?: unknown };
  return (m && typeof m === 'object' && 'default' in m && m.default !== undefined ? m.default : module) as T;
}
