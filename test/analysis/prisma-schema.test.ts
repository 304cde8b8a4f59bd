// The Prisma schema's provider, found where Prisma's CLI looks and read again when it changes:
// an editor's re-lint after the schema moves from SQLite to PostgreSQL sees the new provider.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, test, vi } from 'vitest';
import { prismaProviderOf } from '../../analysis/modules/prisma-schema.js';

const roots: string[] = [];
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));
afterEach(() => vi.useRealTimers());

function project(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'rg-prisma-'));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const schema = (provider: string) => `datasource db {\n  provider = "${provider}"\n  url = env("DATABASE_URL")\n}\n`;

describe('prismaProviderOf', () => {
  test('reads prisma/schema.prisma, a configured `prisma.schema`, or none', () => {
    const plain = project({ 'package.json': '{}', 'prisma/schema.prisma': schema('sqlite'), 'src/jobs.ts': '' });
    const configured = project({
      'package.json': JSON.stringify({ prisma: { schema: 'db/main.prisma' } }),
      'db/main.prisma': schema('postgresql'),
      'src/jobs.ts': '',
    });
    const none = project({ 'package.json': '{}', 'src/jobs.ts': '' });
    expect(prismaProviderOf(join(plain, 'src/jobs.ts'))).toBe('sqlite');
    expect(prismaProviderOf(join(configured, 'src/jobs.ts'))).toBe('postgresql');
    expect(prismaProviderOf(join(none, 'src/jobs.ts'))).toBeUndefined();
  });

  test('a changed schema is read again once the answer is a second old, not before', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const root = project({ 'package.json': '{}', 'prisma/schema.prisma': schema('sqlite'), 'src/jobs.ts': '' });
    const file = join(root, 'src/jobs.ts');
    expect(prismaProviderOf(file)).toBe('sqlite');
    writeFileSync(join(root, 'prisma/schema.prisma'), schema('postgresql'));
    utimesSync(join(root, 'prisma/schema.prisma'), new Date(Date.now() + 5000), new Date(Date.now() + 5000));
    expect(prismaProviderOf(file)).toBe('sqlite');
    vi.setSystemTime(Date.now() + 1500);
    expect(prismaProviderOf(file)).toBe('postgresql');
  });
});
