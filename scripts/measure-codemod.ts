// `npm run measure:codemod`: the codemod on service files it has never seen
// (test/codemods/unseen/<family>/), per family — findings before, removed, left manual with a
// reason, left without one — and the merge checks (outputs parse, no literal changed, no shared
// lease key, a second run changes nothing). Exits 1 when a family is below its threshold or a
// check fails. `--cases DIR` measures another tree of the same layout.
//
// `--manifest M --files F` runs every transform instead over labelled real files laid out at their
// real paths, one git repository per source repository (as /work/shared/real-code/score.mjs lays
// them out): the same checks, and the counts per family (docs/validation.md, "Codemod on real code").
//
//   npm run measure:codemod
//   npm run measure:codemod -- --family schedule
//   npm run measure:codemod -- --manifest ../shared/real-code/manifest.tsv --files ../shared/real-code/files
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FAMILIES, formatResult, layOutRealCode, measureRepo, measureTree, sumRuns, type RunResult } from './measure-codemod/measure.js';

const argument = (name: string): string | undefined => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};

const checksFail = (r: RunResult): boolean =>
  r.families.some((f) => f.manualWithoutReason > 0) ||
  r.unparsable.length + r.literalsChanged.length + r.sharedKeys.length + r.secondRunChanged.length + r.errors.length > 0;

async function unseen(): Promise<boolean> {
  const root = resolve(argument('--cases') ?? fileURLToPath(new URL('../test/codemods/unseen', import.meta.url)));
  const only = argument('--family');
  let failed = false;
  for (const family of FAMILIES) {
    if (only && family.name !== only) continue;
    const dir = join(root, family.name);
    if (!existsSync(dir)) continue;
    const result = await measureTree(dir, family);
    console.log(formatResult(result, family));
    if ((result.before === 0 ? 1 : result.removed / result.before) < family.threshold || checksFail(result)) failed = true;
  }
  return failed;
}

async function realCode(manifest: string, files: string): Promise<boolean> {
  const root = mkdtempSync(join(tmpdir(), 'measure-real-code-'));
  try {
    const repos = layOutRealCode(resolve(manifest), resolve(files), root);
    const runs: RunResult[] = [];
    for (const repo of repos) runs.push(await measureRepo(repo, FAMILIES));
    const total = sumRuns(runs);
    console.log(
      `${repos.length} repositories, ${total.files} files (${total.inputUnparsable.length} not parsed by the TypeScript parser, left out); ${total.filesChanged} changed, ${total.filesCreated} created`,
    );
    for (const f of total.families)
      console.log(
        `${f.family.padEnd(14)} findings ${String(f.before).padStart(3)}  removed ${String(f.removed).padStart(3)}  manual with a reason ${f.manualWithReason}, without ${f.manualWithoutReason}`,
      );
    console.log(
      `unparsable outputs ${total.unparsable.length}; literals changed ${total.literalsChanged.length} (SQL rewritten on purpose ${total.sqlRewritten}); lease keys ${total.leaseKeys}, shared ${total.sharedKeys.length}; second run changed ${total.secondRunChanged.length}; errors ${total.errors.length}`,
    );
    for (const line of [
      ...total.families.flatMap((f) => f.unexplained.map((u) => `no reason (${f.family}): ${u}`)),
      ...total.unparsable.map((u) => `unparsable: ${u}`),
      ...total.literalsChanged.map((u) => `literal: ${u}`),
      ...total.sharedKeys.map((u) => `shared key: ${u}`),
      ...total.secondRunChanged.map((u) => `second run: ${u}`),
      ...total.errors.map((u) => `error: ${u}`),
    ])
      console.log(`  ${line}`);
    return checksFail(total);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

const manifest = argument('--manifest');
const files = argument('--files');
const failed = manifest && files ? await realCode(manifest, files) : await unseen();
process.exit(failed ? 1 : 0);
