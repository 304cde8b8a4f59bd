// Loads a build of the plugin (`dist/eslint-plugin.js`, or a copy of one) the way Node loads it for users.
// A copy outside a `"type": "module"` package (`cp -r dist /tmp/before`) is an ES module in a `.js` file Node
// cannot tell as one: under `node --import tsx` tsx then compiles it with esbuild, whose `keepNames` adds a
// `__name(…)` call for every function and closure made. That build is measured slower than it runs (about
// 4 % of the plugin in a CPU profile of the README row, docs/performance.md, round twenty-four), so a
// paired run against such a copy favours the other build. The benches refuse it.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The `type` of the package.json nearest to `file` (undefined when none says). */
function packageTypeOf(file: string): unknown {
  for (let directory = dirname(file); ; directory = dirname(directory)) {
    const manifest = join(directory, 'package.json');
    if (existsSync(manifest)) return (JSON.parse(readFileSync(manifest, 'utf8')) as { type?: unknown } | null)?.type;
    if (dirname(directory) === directory) return undefined;
  }
}

/** The default export of the build at `path`, which must be loaded as an ES module by Node itself. */
export async function loadBuild<Plugin>(path: string): Promise<Plugin> {
  const file = resolve(path);
  if (file.endsWith('.js') && packageTypeOf(file) !== 'module')
    throw new Error(
      `${path}: no package.json with "type": "module" above it, so tsx would recompile it (adding a call per function made) ` +
        `and it would be measured slower than it runs. Add one: echo '{"type":"module"}' > ${join(dirname(file), 'package.json')}`,
    );
  return ((await import(pathToFileURL(file).href)) as { default: Plugin }).default;
}
