// Two builds of the plugin compared rule by rule, file by file, in a way a busy machine does not
// blur: every file of the corpus is linted K times with each build (the builds take turns, and
// which goes first alternates), each rule's time on the file (its `create` plus every listener
// call) is the MINIMUM over the K runs — a run slowed by another process only raises the others'
// minimum if all K are slowed — and the minima are summed over the corpus. `npm run bench:lint`
// measures what users see (ESLint's `stats`, all files in one run); this measures a change.
// A script, not a test: it prints ratios and asserts nothing.
//
//   npm run bench:lint-paired -- --before /tmp/old/dist/eslint-plugin.js            # vs dist/
//   npm run bench:lint-paired -- --before A --after B --runs 5 --rules no-read-then-write
//
// Two paths to the same build share its module (and its caches): copy one to compare a build with
// itself (the null test; on a 2-core VM under load 6 it gave 1.01 overall, 0.98–1.10 per rule). A copy must sit in a
// `"type": "module"` package (load-build.ts): outside one, tsx recompiles it and it is measured slower than it runs.
import { Linter } from 'eslint';
import tsParser from '@typescript-eslint/parser';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildMonorepoCorpus, corpusLanguageConfig } from '../../scripts/corpus/corpus.js';
import { loadBuild } from './load-build.js';

type Listener = (...args: unknown[]) => unknown;
interface RuleLike {
  create(context: unknown): Record<string, Listener>;
}
interface Plugin {
  rules: Record<string, RuleLike>;
  configs: Record<string, { rules?: Record<string, unknown> }>;
}

const argument = (name: string): string | undefined => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const beforePath = argument('--before');
if (!beforePath) throw new Error('--before <path to another build of dist/eslint-plugin.js> is required');
const afterPath = argument('--after') ?? 'dist/eslint-plugin.js';
const runs = Math.max(1, Number(argument('--runs')) || 3);

/** Time spent in each rule on the file being linted, filled by the wrapped rules. */
const spent = new Map<string, number>();

/** The plugin with every rule's `create` and listeners timed into `spent`. */
function timed(plugin: Plugin): Plugin {
  const rules = Object.fromEntries(
    Object.entries(plugin.rules).map(([name, rule]) => {
      const add = (since: number): void => void spent.set(name, (spent.get(name) ?? 0) + performance.now() - since);
      const create = (context: unknown): Record<string, Listener> => {
        const started = performance.now();
        const listeners = rule.create(context);
        add(started);
        for (const [selector, listener] of Object.entries(listeners)) {
          listeners[selector] = (...args: unknown[]) => {
            const at = performance.now();
            try {
              return listener(...args);
            } finally {
              add(at);
            }
          };
        }
        return listeners;
      };
      return [name, { ...rule, create }];
    }),
  );
  return { ...plugin, rules };
}

const load = (path: string): Promise<Plugin> => loadBuild<Plugin>(path);
const builds = [timed(await load(beforePath)), timed(await load(afterPath))] as const;
const only = argument('--rules')?.split(',');
const names = Object.keys(builds[0].configs.recommended?.rules ?? {})
  .map((key) => key.split('/').pop()!)
  .filter((name) => !only || only.includes(name));
const configOf = (plugin: Plugin): Linter.Config[] => [
  ...(corpusLanguageConfig(tsParser) as Linter.Config[]),
  {
    files: ['**/*'],
    plugins: { p: plugin as never },
    linterOptions: { reportUnusedDisableDirectives: 'off' },
    rules: Object.fromEntries(names.map((name) => [`p/${name}`, 'error'])),
  },
];
const configs = builds.map(configOf);

const corpus = await buildMonorepoCorpus();
console.log(
  `corpus: ${corpus.files.length} files; ${runs} run(s) per file per build, minimum kept; before ${beforePath}, after ${afterPath}`,
);
try {
  const linter = new Linter({ cwd: corpus.dir });
  const totals = [new Map<string, number>(), new Map<string, number>()];
  const findings = [0, 0];
  const lint = (build: number, text: string, file: string): number => {
    spent.clear();
    return linter.verify(text, configs[build]!, file).filter((message) => message.ruleId).length;
  };
  // One pass to warm up (JIT, module summaries, package.json lookups) before anything is counted.
  for (const file of corpus.files) {
    const path = join(corpus.dir, file);
    const text = readFileSync(path, 'utf8');
    for (const build of [0, 1]) lint(build, text, path);
  }
  for (const file of corpus.files) {
    const path = join(corpus.dir, file);
    const text = readFileSync(path, 'utf8');
    const minima = [new Map<string, number>(), new Map<string, number>()];
    for (let run = 0; run < runs; run++) {
      for (const build of run % 2 === 0 ? [0, 1] : [1, 0]) {
        const count = lint(build, text, path);
        if (run === 0) findings[build]! += count;
        for (const name of names) minima[build]!.set(name, Math.min(minima[build]!.get(name) ?? Infinity, spent.get(name) ?? 0));
      }
    }
    for (const build of [0, 1]) for (const [name, t] of minima[build]!) totals[build]!.set(name, (totals[build]!.get(name) ?? 0) + t);
  }
  console.log('rule'.padEnd(30), 'before'.padStart(10), 'after'.padStart(10), 'after/before'.padStart(14));
  const sum = (build: number): number => [...totals[build]!.values()].reduce((a, b) => a + b, 0);
  for (const name of names) {
    const [b, a] = [totals[0]!.get(name) ?? 0, totals[1]!.get(name) ?? 0];
    console.log(name.padEnd(30), `${b.toFixed(0)} ms`.padStart(10), `${a.toFixed(0)} ms`.padStart(10), (a / b).toFixed(3).padStart(14));
  }
  console.log(
    'total'.padEnd(30),
    `${sum(0).toFixed(0)} ms`.padStart(10),
    `${sum(1).toFixed(0)} ms`.padStart(10),
    (sum(1) / sum(0)).toFixed(3).padStart(14),
  );
  console.log(`findings: before ${findings[0]}, after ${findings[1]}`);
} finally {
  corpus.dispose();
}
