import { defineConfig } from 'tsup';

// Two builds. The runtime entry (index) must never pull in tooling: tsup keeps every dependency
// and peer dependency external, and the runtime sources import none of them.
//
// ESM: every entry in one build with code splitting, so the rules, the analysis and the codemod
// engine are one shared chunk that the plugin, the codemod API, the bin and the `--concurrency`
// worker all import (they were four bundled copies). Chunks sit next to the entries, so the worker
// pool still finds `codemod-worker.js` beside the module that starts it.
//
// CommonJS: only the runtime, for services compiled to CommonJS (NestJS) with `.d.cts` types.
// The tooling entries are ESM only: ESLint loads plugins with `import()`, and since Node 20.19
// (our floor) `require()` loads an ES module too, so `require('replica-guard/eslint-plugin')`
// still works from a CommonJS config without a second copy of the rules.
//
// No source maps: the output is not minified (readable names and lines in a stack trace), and
// maps were 57 % of the unpacked package.
// `npm run build` empties dist/ first: a `clean` here would let one build's cleanup race the
// other's type declarations.
export default defineConfig([
  {
    entry: {
      index: 'src/index.ts',
      'eslint-plugin': 'rules/index.ts',
      codemod: 'codemods/index.ts',
      bin: 'codemods/bin.ts',
      'codemod-worker': 'codemods/engine/file-worker.ts',
    },
    format: ['esm'],
    dts: { entry: { index: 'src/index.ts', 'eslint-plugin': 'rules/index.ts', codemod: 'codemods/index.ts' } },
    sourcemap: false,
    target: 'node20',
    platform: 'node',
    splitting: true,
  },
  {
    entry: { index: 'src/index.ts' },
    format: ['cjs'],
    dts: true,
    sourcemap: false,
    target: 'node20',
    platform: 'node',
    splitting: false,
  },
]);
