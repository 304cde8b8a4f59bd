// setLeaseClient is wired only into a module that runs: reached by relative imports from where the
// service starts (package.json main / start / bin, NestFactory.create) or from the guarded code;
// a client in a module nothing loads gets a follow-up instead.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { read, repo, run } from './cli-harness.js';

const REDIS = `import Redis from 'ioredis';\n\nexport const redis = new Redis(process.env.REDIS_URL!);\n`;
const JOB = `export async function sweep() {\n  await sessions.purgeExpired();\n}\n\nsetInterval(sweep, 60_000);\n`;

function withPackage(dir: string, json: Record<string, unknown>): void {
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: '@acme/billing', type: 'module', ...json }));
  execFileSync('git', ['commit', '-qam', 'package'], { cwd: dir });
}

interface Report {
  manual: Array<{ file: string; reason: string }>;
}

describe('lease-client wiring only where the service starts', { timeout: 180_000 }, () => {
  test('the wiring follow-up is listed once, though two transforms share the step', () => {
    const dir = repo({ 'src/jobs.ts': JOB });
    const report = JSON.parse(run(dir, '--json', '--dry-run').stdout) as Report;
    expect(report.manual.filter((m) => m.reason.includes('setLeaseClient'))).toHaveLength(1);
  });

  test('a client in a module nothing imports is not wired: a follow-up names where to call it', () => {
    const dir = repo({ 'src/main.ts': `import './jobs.js';\n`, 'src/jobs.ts': JOB, 'src/redis.ts': REDIS });
    withPackage(dir, { main: 'dist/main.js' });
    const report = JSON.parse(run(dir, '--json', '--transform', 'guard-schedules').stdout) as Report;
    expect(read(dir, 'src/redis.ts')).toBe(REDIS);
    expect(report.manual).toContainEqual({
      file: 'src/redis.ts',
      line: 3,
      reason: expect.stringContaining(
        'nothing the service runs imports it: call setLeaseClient(redis) once where the service starts (src/main.ts)',
      ) as string,
      transform: 'guard-schedules',
    });
  });

  test('a client imported from the package main (through its build path) is wired', () => {
    const dir = repo({
      'src/main.ts': `import './jobs.js';\nimport { redis } from './redis.js';\nvoid redis;\n`,
      'src/jobs.ts': JOB,
      'src/redis.ts': REDIS,
    });
    withPackage(dir, { main: 'dist/main.js' });
    run(dir, '--transform', 'guard-schedules');
    expect(read(dir, 'src/redis.ts')).toContain('export const redis = new Redis(process.env.REDIS_URL!);\nsetLeaseClient(redis);');
  });

  test('a Nest bootstrap is a start: a client its module graph imports is wired', () => {
    const dir = repo({
      'src/main.ts': `import { NestFactory } from '@nestjs/core';\nimport { AppModule } from './app.module';\n\nasync function bootstrap() {\n  const app = await NestFactory.create(AppModule);\n  await app.listen(3000);\n}\nvoid bootstrap();\n`,
      'src/app.module.ts': `import { redis } from './infra/redis';\nexport class AppModule {}\nvoid redis;\n`,
      'src/infra/redis.ts': REDIS,
      'src/jobs.ts': JOB,
    });
    run(dir, '--force', '--transform', 'guard-schedules');
    expect(read(dir, 'src/infra/redis.ts')).toContain('setLeaseClient(redis);');
  });

  test('a client whose module is required with double quotes or a template is found; one that only names the word is not a client', () => {
    const client = (quote: string): string =>
      `const { createClient } = require(${quote}redis${quote});\n\nconst cache = createClient({ url: process.env.REDIS_URL });\nmodule.exports = { cache };\n`;
    for (const quote of ['"', '`']) {
      const dir = repo({
        'src/main.cjs': `require('./jobs.cjs');\nrequire('./cache.cjs');\n`,
        'src/jobs.cjs': `async function sweep() {\n  await sessions.purgeExpired();\n}\n\nsetInterval(sweep, 60_000);\n`,
        'src/cache.cjs': client(quote),
        // Names the module in a comment and a property, creates no client: must not count as a second one.
        'src/options.cjs': `// redis options (see @redis/client)\nmodule.exports = { redis: { url: process.env.REDIS_URL } };\n`,
      });
      withPackage(dir, { main: 'dist/main.js', type: 'commonjs' });
      run(dir, '--force', '--transform', 'guard-schedules');
      expect(read(dir, 'src/cache.cjs'), quote).toContain(
        'const cache = createClient({ url: process.env.REDIS_URL });\nsetLeaseClient(cache);',
      );
    }
  });
});
