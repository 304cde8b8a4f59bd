// Where a service starts and which modules run from there (the lease-client wiring's module graph).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { packageEntries, reachableFrom, serviceStarts } from '../../codemods/engine/service-start.js';

const dir = mkdtempSync(join(tmpdir(), 'replica-codemod-start-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const at = (path: string): string => join(dir, path);
const files = new Map<string, string>([
  [at('src/main.ts'), "import { start } from './app.js';\nimport './jobs';\nvoid start();\n"],
  [at('src/app.ts'), "const infra = require('./infra');\nexport const start = async () => infra;\n"],
  [at('src/infra/index.ts'), "export { redis } from './redis.js';\n"],
  [at('src/infra/redis.ts'), 'export const redis = {};\n'],
  [at('src/jobs.ts'), 'setInterval(() => {}, 1000);\n'],
  [at('src/orphan.ts'), "import './infra/redis.js';\n"],
  [at('src/nest.ts'), "import { NestFactory } from '@nestjs/core';\nawait NestFactory.create(AppModule);\n"],
  [at('bin/cli.js'), '#!/usr/bin/env node\n'],
]);

test('package.json main (a build path mapped to its source), the start script and bin are entries', () => {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    at('package.json'),
    JSON.stringify({ main: 'dist/main.js', bin: { tool: './bin/cli.js' }, scripts: { start: 'node dist/app.js' } }),
  );
  expect(packageEntries(dir, files).sort()).toEqual([at('bin/cli.js'), at('src/app.ts'), at('src/main.ts')]);
  expect(serviceStarts(dir, files)).toContain(at('src/nest.ts'));
});

test('the module graph follows import, export-from, require and directory index files, and nothing that only imports', () => {
  const reached = reachableFrom([at('src/main.ts')], files);
  expect([...reached].sort()).toEqual([
    at('src/app.ts'),
    at('src/infra/index.ts'),
    at('src/infra/redis.ts'),
    at('src/jobs.ts'),
    at('src/main.ts'),
  ]);
  expect(reached.has(at('src/orphan.ts'))).toBe(false);
});
