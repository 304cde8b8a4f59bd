// The benchmark and validation corpus: real JavaScript and TypeScript this repo does not contain —
// the sources shipped in installed packages — copied into a temp folder (ESLint and the codemod's
// file discovery both skip `node_modules`). One definition, used by the lint and codemod
// benchmarks and by scripts/validate-corpus.ts, so every number is about the same files.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { APP_CORPUS_SOURCES, LIBRARY_CORPUS_SOURCES } from './corpus-sources.js';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';

/** Packages whose shipped sources make up the corpus (those not installed are skipped). */
export const CORPUS_PACKAGES = [
  'typeorm',
  'drizzle-orm',
  'kysely',
  'knex',
  'ioredis',
  '@redis/client',
  'nats',
  'node-cron',
  'cron',
  'croner',
  'node-schedule',
  'toad-scheduler',
];
const SOURCE = /\.(?:[cm]?js|[cm]?ts)$/;
/** Folder names the codemod's discovery skips as build output (`dist`, `build`): renamed `dist_`… in the copy. */
const BUILD_FOLDERS = new Set(['dist', 'build', 'coverage']);
/** Bundles above this are generated code nobody lints. */
const MAX_BYTES = 300_000;

export interface Corpus {
  /** The temp folder; remove it with `dispose()`. */
  dir: string;
  /** Paths relative to `dir`, `<package>/<path in package>` (with `dist/` written `dist_/`). */
  files: string[];
  /** The copied package.json files (they say how a `.js` file parses). */
  packageFiles: string[];
  packages: string[];
  dispose(): void;
}

function* sources(directory: string, maxBytes: number): Generator<string> {
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory() && entry.name !== 'node_modules') yield* sources(path, maxBytes);
    else if (entry.isFile() && entry.name === 'package.json') yield path;
    else if (entry.isFile() && SOURCE.test(entry.name) && !/\.d\.[cm]?ts$/.test(entry.name) && statSync(path).size <= maxBytes) yield path;
  }
}

/** Copies the installed packages' `.js`/`.ts` sources (no `.d.ts`, up to 300 kB each) and package.json files into a new temp folder. */
export function buildCorpus(packages: readonly string[] = CORPUS_PACKAGES, root = process.cwd(), maxBytes = MAX_BYTES): Corpus {
  const installed = packages.map((name) => ({ name, dir: join(root, 'node_modules', name) })).filter(({ dir }) => existsSync(dir));
  return buildCorpusFrom(installed, maxBytes);
}

/**
 * Like `buildCorpus`, from explicit package folders (the corpora fetched by
 * scripts/fetch-corpus.ts): each folder's files land under `<name>/` in the temp folder.
 */
export function buildCorpusFrom(folders: ReadonlyArray<{ name: string; dir: string }>, maxBytes = MAX_BYTES): Corpus {
  const dir = mkdtempSync(join(tmpdir(), 'replica-guard-corpus-'));
  const files: string[] = [];
  const packageFiles: string[] = [];
  for (const { name, dir: from } of folders) {
    for (const file of sources(from, maxBytes)) {
      const inPackage = relative(from, file)
        .split(/[\\/]/)
        .map((segment) => (BUILD_FOLDERS.has(segment) ? `${segment}_` : segment))
        .join('/');
      const path = join(name, inPackage);
      mkdirSync(join(dir, path, '..'), { recursive: true });
      cpSync(file, join(dir, path));
      // package.json files come along so `"type": "module"` still says how a `.js` file parses.
      (path.endsWith('package.json') ? packageFiles : files).push(path);
    }
  }
  return { dir, files, packageFiles, packages: folders.map((f) => f.name), dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * The benchmarks' corpus: the installed libraries (`CORPUS_PACKAGES`) plus the pinned
 * `LIBRARY_CORPUS_SOURCES`, fetched into the cache on first use. Without the registry the
 * installed ones alone are used, and `missing` says what is absent.
 */
export async function buildBenchCorpus(): Promise<Corpus & { missing: string[] }> {
  const { fetchCorpus } = await import('../fetch-corpus.js');
  const fetched = await fetchCorpus(LIBRARY_CORPUS_SOURCES);
  const installed = CORPUS_PACKAGES.map((name) => ({ name, dir: join(process.cwd(), 'node_modules', name) })).filter(({ dir }) =>
    existsSync(dir),
  );
  const corpus = buildCorpusFrom([...installed, ...fetched.packages]);
  const missing = [...CORPUS_PACKAGES.filter((name) => !installed.some((p) => p.name === name)), ...fetched.failed.map((f) => f.name)];
  return { ...corpus, missing };
}

/** The application corpus (`APP_CORPUS_SOURCES`: servers published on npm), fetched into the cache on first use. */
export async function buildAppCorpus(): Promise<Corpus & { missing: string[] }> {
  const { fetchCorpus } = await import('../fetch-corpus.js');
  const fetched = await fetchCorpus(APP_CORPUS_SOURCES);
  return { ...buildCorpusFrom(fetched.packages), missing: fetched.failed.map((f) => f.name) };
}

/**
 * The bench corpus laid out as a monorepo: each corpus package becomes a workspace package
 * (`packages/<name>/…`, a root package.json with `workspaces`), and every package gets
 * `migrations/` folders (a copy of about one file in twenty), so path conventions (migration
 * files, entrypoints) are exercised as they are in a large service repository.
 */
export async function buildMonorepoCorpus(): Promise<Corpus & { missing: string[] }> {
  const bench = await buildBenchCorpus();
  const dir = mkdtempSync(join(tmpdir(), 'replica-guard-monorepo-'));
  const files: string[] = [];
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'monorepo', private: true, workspaces: ['packages/*'] }));
  let index = 0;
  for (const file of [...bench.files, ...bench.packageFiles]) {
    const [name, ...rest] = file.split('/');
    const target = join('packages', name!.replace(/^@/, '').replace('/', '-'), ...rest);
    mkdirSync(join(dir, target, '..'), { recursive: true });
    cpSync(join(bench.dir, file), join(dir, target));
    if (file.endsWith('package.json')) continue;
    files.push(target);
    if (index++ % 20 === 0) {
      const migration = join(
        'packages',
        name!.replace(/^@/, '').replace('/', '-'),
        'migrations',
        `${String(index).padStart(5, '0')}_${basename(file)}`,
      );
      mkdirSync(join(dir, migration, '..'), { recursive: true });
      cpSync(join(bench.dir, file), join(dir, migration));
      files.push(migration);
    }
  }
  bench.dispose();
  return {
    dir,
    files,
    packageFiles: [],
    packages: bench.packages,
    missing: bench.missing,
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The ESLint flat config for the corpus: TS through @typescript-eslint/parser, `.cjs` as scripts. */
export function corpusLanguageConfig(tsParser: unknown): Array<Record<string, unknown>> {
  return [
    { files: ['**/*.ts', '**/*.mts', '**/*.cts'], languageOptions: { parser: tsParser } },
    { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs' } },
    { files: ['**/*.js', '**/*.mjs'], languageOptions: { sourceType: 'module' } },
  ];
}

export const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
