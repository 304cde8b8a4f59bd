// What the codemod's no-op pass parses, per transform: the files a transform's words and text check
// pass, those its rule's own pre-check then admits (the rule asks for the tree or returns
// listeners), those only it admits, and the files parsed in all (count and MB) — plus the files the
// setLeaseClient wiring step would parse. The same decisions as `Engine#transformFile` (its private
// pre-checks, asked here) over the bench corpus, the application corpus and the monorepo corpus.
// A script, not a test: it prints counts and asserts nothing (docs/performance.md, round twenty).
//
//   node --import tsx test/bench/codemod-admitted.ts            # the three corpora
//   node --import tsx test/bench/codemod-admitted.ts --corpus app
import { dirname } from 'node:path';
import { Engine } from '../../codemods/engine/engine.js';
import { findTransforms } from '../../codemods/registry.js';
import { discoverFiles } from '../../codemods/engine/discover-files.js';
import { readSource, textCandidates } from '../../codemods/engine/prefilter.js';
import { mayCreateClient } from '../../codemods/engine/lease-client-wiring.js';
import type { AnyTransform } from '../../codemods/engine/transform.js';
import { buildAppCorpus, buildBenchCorpus, buildMonorepoCorpus, type Corpus } from '../../scripts/corpus/corpus.js';

/** The engine's own per-file pre-checks (private in the engine: asked through this view). */
interface EngineChecks {
  settingsFor(path: string): Record<string, unknown>;
  mayChange(path: string, text: string, transform: AnyTransform, run: { settings: Record<string, unknown>; cwd: string }): boolean;
}

async function admitted(name: string, corpus: Corpus): Promise<void> {
  const transforms = findTransforms();
  const engine = new Engine(transforms, { service: 'bench', root: corpus.dir }) as unknown as EngineChecks;
  const { files } = await discoverFiles(['.'], corpus.dir);
  const count = (map: Map<string, number>, key: string): void => void map.set(key, (map.get(key) ?? 0) + 1);
  const words = new Map<string, number>();
  const ruleChecks = new Map<string, number>();
  const onlyIt = new Map<string, number>();
  let parsed = 0;
  let parsedBytes = 0;
  let wiring = 0;
  for (const path of files) {
    const source = readSource(path);
    if (!('text' in source)) continue;
    const text = source.text.startsWith('\uFEFF') ? source.text.slice(1) : source.text;
    if (mayCreateClient(text)) wiring++;
    const run = { settings: engine.settingsFor(path), cwd: dirname(path) };
    const passing = textCandidates(text, transforms);
    for (const t of passing) count(words, t.name);
    const candidates = passing.filter((t) => engine.mayChange(path, text, t, run));
    for (const t of candidates) count(ruleChecks, t.name);
    if (candidates.length === 1) count(onlyIt, candidates[0]!.name);
    if (candidates.length > 0) {
      parsed++;
      parsedBytes += Buffer.byteLength(text);
    }
  }
  console.log(
    `${name}: ${files.length} files; parsed ${parsed} (${(parsedBytes / 1e6).toFixed(1)} MB); the wiring step would parse ${wiring}`,
  );
  for (const t of transforms) {
    const row = [words, ruleChecks, onlyIt].map((map) => String(map.get(t.name) ?? 0).padStart(6));
    console.log(`  ${t.name.padEnd(24)} words and text check ${row[0]}  rule pre-check ${row[1]}  only it ${row[2]}`);
  }
}

const at = process.argv.indexOf('--corpus');
const only = at > 0 ? process.argv[at + 1] : undefined;
const builders = { bench: buildBenchCorpus, app: buildAppCorpus, monorepo: buildMonorepoCorpus };
for (const [name, build] of Object.entries(builders)) {
  if (only && only !== name) continue;
  const corpus = await build();
  try {
    await admitted(name, corpus);
  } finally {
    corpus.dispose();
  }
}
