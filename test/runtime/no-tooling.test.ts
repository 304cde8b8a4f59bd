// A service that only uses the guards must not load the lint/codemod tooling. Imports the BUILT
// runtime (npm test builds first) in a fresh process and lists every module that got loaded.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';

const TOOLING =
  /[\\/]node_modules[\\/](eslint|typescript-eslint|@typescript-eslint[\\/][^\\/]+|typescript|ts-morph|@ts-morph[\\/][^\\/]+|espree)[\\/]/;

function loadedModules(mode: 'esm' | 'cjs', entry: string): string[] {
  const file = resolve(entry);
  if (!existsSync(file)) throw new Error(`${entry} does not exist: run \`npx tsup\` (npm test builds before vitest)`);
  const dir = mkdtempSync(join(tmpdir(), 'replica-guard-loads-'));
  try {
    const out = execFileSync(process.execPath, ['test/runtime/fixtures/list-loaded-modules.mjs', mode, file, join(dir, 'loads.txt')], {
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    return out.split('\n').filter(Boolean);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe.each([
  ['esm', 'dist/index.js'],
  ['cjs', 'dist/index.cjs'],
] as const)('the built runtime (%s)', (mode, entry) => {
  test('loads no eslint, typescript-eslint, typescript or ts-morph module', () => {
    const modules = loadedModules(mode, entry);
    // The recorder works: the runtime's own dependency shows up.
    expect(modules.some((m) => /[\\/]node_modules[\\/]croner[\\/]/.test(m))).toBe(true);
    expect(modules.filter((m) => TOOLING.test(m))).toEqual([]);
    // The optional OpenTelemetry peer is loaded only when metrics are turned on.
    expect(modules.filter((m) => /[\\/]@opentelemetry[\\/]/.test(m))).toEqual([]);
  });

  test('metrics: true finds the optional @opentelemetry/api and records through the global MeterProvider', () => {
    const out = execFileSync(process.execPath, ['test/runtime/fixtures/metrics-from-build.mjs', mode, resolve(entry)], {
      encoding: 'utf8',
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    expect(JSON.parse(out)).toEqual({
      points: [
        {
          attributes: { 'replica_guard.guard': 'claimOnce', 'replica_guard.key_prefix': 'built', 'replica_guard.outcome': 'local' },
          value: 1,
        },
      ],
      warnings: [],
    });
  });
});
