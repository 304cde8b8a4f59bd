// How knowledge compares the names code gives things: decorations off, one case, so `_js`,
// `#jetStream`, `JET_STREAM` and `jetstream` are one name. Pure functions.

/** A name with its decorations taken off: `_js`, `#jetStream`, `RUN_MIGRATIONS` → `js`, `jetstream`, `runmigrations`. */
export function plainName(name: string): string {
  return name
    .replace(/^[_#$]+/, '')
    .replace(/_/g, '')
    .toLowerCase();
}
