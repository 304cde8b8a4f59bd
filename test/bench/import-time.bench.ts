// `import 'replica-guard'` time: the built runtime entry (dist/index.js, dist/index.cjs) imported
// in fresh Node processes, against importing its one scheduling dependency (croner) and a
// typical client (ioredis) the same way, so the ratio is measured side by side. The time is taken
// inside the child around the dynamic import (process start-up excluded); whole-process wall
// times against an empty `node -e ''` are printed too. Needs a build (`npx tsup`).
//
//   npm run bench:import -- --runs 21
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { median } from '../../scripts/corpus/corpus.js';

const runsAt = process.argv.indexOf('--runs');
const runs = runsAt > 0 ? Math.max(1, Number(process.argv[runsAt + 1]) || 1) : 15;
const entries: Array<[string, string]> = [
  ['replica-guard (dist/index.js, ESM)', pathToFileURL(resolve('dist/index.js')).href],
  ['replica-guard (dist/index.cjs, CJS)', pathToFileURL(resolve('dist/index.cjs')).href],
  ['croner', 'croner'],
  ['ioredis', 'ioredis'],
];
for (const [, specifier] of entries.slice(0, 2)) {
  if (!existsSync(new URL(specifier))) throw new Error(`${specifier} does not exist: run \`npx tsup\` first`);
}

const importMs = (specifier: string): number => {
  const code = `const t = performance.now(); await import(${JSON.stringify(specifier)}); console.log(performance.now() - t);`;
  return Number(
    execFileSync(process.execPath, ['--input-type=module', '-e', code], {
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: '' },
    }).trim(),
  );
};
const wallMs = (args: string[]): number => {
  const t = performance.now();
  execFileSync(process.execPath, args, { env: { ...process.env, NODE_OPTIONS: '' } });
  return performance.now() - t;
};

const samples = new Map<string, number[]>(entries.map(([name]) => [name, []]));
const walls = { empty: [] as number[], runtime: [] as number[] };
for (let i = 0; i < runs; i++) {
  // Interleaved, so load on the machine hits every entry alike.
  for (const [name, specifier] of entries) samples.get(name)!.push(importMs(specifier));
  walls.empty.push(wallMs(['-e', '']));
  walls.runtime.push(wallMs(['--input-type=module', '-e', `await import(${JSON.stringify(entries[0]![1])})`]));
}
console.log(`node ${process.version}, ${runs} fresh processes per entry, medians\n`);
const croner = median(samples.get('croner')!);
for (const [name] of entries) {
  const ms = median(samples.get(name)!);
  console.log(`${name.padEnd(38)} ${`${ms.toFixed(1)} ms`.padStart(10)}   ${(ms / croner).toFixed(2)}× croner`);
}
console.log(
  `\nwhole process: node -e '' ${median(walls.empty).toFixed(0)} ms, with import 'replica-guard' ${median(walls.runtime).toFixed(0)} ms`,
);
