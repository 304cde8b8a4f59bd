// Fetches the application corpus (test/bench/corpus-sources.ts) into a cache outside the repo:
// `npm pack <name>@<version>` — the published tarball only: no dependencies, no install scripts —
// extracted with `tar` into `<cache>/<name>@<version>/`. A package already extracted is reused; a
// failed fetch is reported by name and the run goes on with the rest.
//
//   npm run fetch-corpus        # cache: $REPLICA_GUARD_CORPUS_CACHE or ~/.cache/replica-guard-corpus
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { APP_CORPUS_SOURCES, LIBRARY_CORPUS_SOURCES, sourceId, type CorpusSource } from './corpus/corpus-sources.js';

const run = promisify(execFile);

/** The cache folder: `$REPLICA_GUARD_CORPUS_CACHE`, else `~/.cache/replica-guard-corpus`. */
export const corpusCacheDir = (): string => process.env.REPLICA_GUARD_CORPUS_CACHE ?? join(homedir(), '.cache', 'replica-guard-corpus');

export interface FetchedPackage {
  /** `name@version`. */
  name: string;
  /** The extracted package root (holds its package.json). */
  dir: string;
}

export interface FetchResult {
  packages: FetchedPackage[];
  failed: Array<{ name: string; error: string }>;
  /** How many were fetched in this run (the rest came from the cache). */
  fetched: number;
}

async function fetchOne(source: CorpusSource, cache: string): Promise<'cached' | 'fetched'> {
  const target = join(cache, sourceId(source));
  if (existsSync(join(target, 'package.json'))) return 'cached';
  const work = mkdtempSync(join(cache, '.fetch-'));
  try {
    const { stdout } = await run('npm', ['pack', sourceId(source), '--pack-destination', work, '--ignore-scripts', '--json', '--silent'], {
      maxBuffer: 64 * 1024 * 1024,
    });
    const tarball = (JSON.parse(stdout) as Array<{ filename: string }>)[0]?.filename;
    if (tarball === undefined) throw new Error(`npm pack printed no tarball for ${sourceId(source)}`);
    const extracted = join(work, 'x');
    mkdirSync(extracted);
    await run('tar', ['-xzf', join(work, tarball.replace(/^@/, '').replace(/\//g, '-')), '-C', extracted, '--no-same-owner']);
    // npm tarballs hold one top folder, usually `package/` (not always: some name it otherwise).
    const [top, ...rest] = readdirSync(extracted);
    if (top === undefined || rest.length > 0)
      throw new Error(`${tarball}: expected one top folder, found ${[top, ...rest].join(', ') || 'none'}`);
    mkdirSync(join(target, '..'), { recursive: true });
    rmSync(target, { recursive: true, force: true });
    renameSync(join(extracted, top), target);
    return 'fetched';
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Fetches what is not cached yet (4 at a time) and returns the extracted roots of every package that is there. */
export async function fetchCorpus(
  sources: readonly CorpusSource[] = APP_CORPUS_SOURCES,
  cache = corpusCacheDir(),
  log: (line: string) => void = () => {},
): Promise<FetchResult> {
  mkdirSync(cache, { recursive: true });
  const result: FetchResult = { packages: [], failed: [], fetched: 0 };
  const queue = [...sources];
  const worker = async (): Promise<void> => {
    for (let source = queue.shift(); source !== undefined; source = queue.shift()) {
      try {
        const how = await fetchOne(source, cache);
        if (how === 'fetched') result.fetched++;
        log(`${how === 'fetched' ? 'fetched' : 'cached '} ${sourceId(source)}`);
      } catch (error) {
        // With --json, npm says why on stdout: `{ "error": { "code": "ETARGET", "summary": "No matching version …" } }`.
        let reason = '';
        try {
          const said = JSON.parse(String((error as { stdout?: unknown }).stdout ?? '')) as { error?: { code?: string; summary?: string } };
          if (said.error) reason = [said.error.code, said.error.summary].filter(Boolean).join(': ');
        } catch {
          // not JSON: fall back to the exit message
        }
        const message = reason || (error instanceof Error ? error.message.split('\n')[0]! : String(error));
        result.failed.push({ name: sourceId(source), error: message });
        log(`FAILED  ${sourceId(source)}: ${message}`);
      }
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  // Listed in the pinned order, whatever order the fetches finished in.
  for (const source of sources) {
    const dir = join(cache, sourceId(source));
    if (existsSync(join(dir, 'package.json'))) result.packages.push({ name: sourceId(source), dir });
  }
  return result;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const cache = corpusCacheDir();
  // Both corpora: the applications (validation) and the libraries the benchmarks add.
  const all = [...APP_CORPUS_SOURCES, ...LIBRARY_CORPUS_SOURCES];
  const result = await fetchCorpus(all, cache, (line) => console.log(line));
  console.log(`${result.packages.length} of ${all.length} packages in ${cache} (${result.fetched} fetched now)`);
  for (const failure of result.failed) console.error(`failed: ${failure.name}: ${failure.error}`);
  process.exitCode = result.failed.length === 0 ? 0 : 1;
}
