import { defineConfig } from 'tsup';

// One build, four entries. The runtime entry (index) must never pull in tooling: tsup keeps
// every dependency and peer dependency external, and the runtime sources import none of them.
export default defineConfig([
  {
    entry: {
      index: 'src/index.ts',
      'eslint-plugin': 'rules/index.ts',
      codemod: 'codemods/index.ts',
    },
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'node20',
    platform: 'node',
    splitting: false,
  },
  {
    // codemod-worker: the `--concurrency` worker thread, found next to codemod.js / cli.js.
    entry: { cli: 'codemods/engine/cli.ts', 'codemod-worker': 'codemods/engine/file-worker.ts' },
    format: ['esm'],
    target: 'node20',
    platform: 'node',
    splitting: false,
    banner: { js: '#!/usr/bin/env node' },
  },
]);
