// Where a service starts and what runs from there: the package's `main`, the files its `start`
// script and `bin` run (a `dist/…js` path mapped back to its `src/…ts` source), files that call
// `NestFactory.create`, and every project module reachable from them by relative imports. The
// lease-client wiring goes only into a module in that graph: a module nothing loads never runs.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const SOURCE_SUFFIXES = ['', '.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
const INDEX_FILES = SOURCE_SUFFIXES.slice(1).map((ext) => `/index${ext}`);
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)(['"])(\.{1,2}\/[^'"\n]*|\.{1,2})\1/gm;
const NEST_BOOTSTRAP = /\bNestFactory\s*\.\s*create(?:Microservice)?\s*[<(]/;

/** The scanned file a relative specifier names from `from`, trying the extensions TypeScript and Node allow. */
function resolveSpecifier(from: string, specifier: string, files: ReadonlyMap<string, string>): string | undefined {
  const base = resolve(dirname(from), specifier);
  const stems = [base, base.replace(/\.(m|c)?js$/, ''), base.replace(/\.jsx$/, '')];
  for (const stem of stems) for (const suffix of [...SOURCE_SUFFIXES, ...INDEX_FILES]) if (files.has(stem + suffix)) return stem + suffix;
  return undefined;
}

/** A path a package.json points at, or its source when it points into build output (`dist/main.js` → `src/main.ts`). */
function sourceOf(dir: string, path: string, files: ReadonlyMap<string, string>): string | undefined {
  const absolute = resolve(dir, path);
  for (const candidate of [absolute, absolute.replace(/([\\/])(dist|build|lib|out)([\\/])/, '$1src$3')]) {
    const found = resolveSpecifier(join(dir, 'package.json'), candidate, files);
    if (found) return found;
  }
  return undefined;
}

/** The files the package.json at `dir` says start the service (`main`, the `start` script, `bin`). */
export function packageEntries(dir: string, files: ReadonlyMap<string, string>): string[] {
  const file = join(dir, 'package.json');
  if (!existsSync(file)) return [];
  let json: { main?: unknown; bin?: unknown; scripts?: Record<string, unknown> };
  try {
    json = JSON.parse(readFileSync(file, 'utf8')) as typeof json;
  } catch {
    return [];
  }
  const paths: string[] = [];
  if (typeof json.main === 'string') paths.push(json.main);
  if (typeof json.bin === 'string') paths.push(json.bin);
  else if (json.bin && typeof json.bin === 'object')
    paths.push(...Object.values(json.bin).filter((v): v is string => typeof v === 'string'));
  const start = json.scripts?.start;
  if (typeof start === 'string') paths.push(...(start.match(/[\w@./-]+\.(?:m|c)?[jt]sx?\b/g) ?? []));
  return paths.flatMap((p) => sourceOf(dir, p, files) ?? []);
}

/** Where the service starts: package entries, then any file that bootstraps a Nest application. */
export function serviceStarts(dir: string, files: ReadonlyMap<string, string>): string[] {
  const nest = [...files].filter(([, text]) => NEST_BOOTSTRAP.test(text)).map(([path]) => path);
  return [...new Set([...packageEntries(dir, files), ...nest])];
}

/** Every scanned module reachable from `roots` by relative imports (the roots included). */
export function reachableFrom(roots: readonly string[], files: ReadonlyMap<string, string>): Set<string> {
  const reached = new Set<string>();
  const queue = roots.filter((root) => files.has(root));
  while (queue.length > 0) {
    const path = queue.pop()!;
    if (reached.has(path)) continue;
    reached.add(path);
    for (const match of (files.get(path) ?? '').matchAll(SPECIFIER)) {
      const target = resolveSpecifier(path, match[2]!, files);
      if (target && !reached.has(target)) queue.push(target);
    }
  }
  return reached;
}
