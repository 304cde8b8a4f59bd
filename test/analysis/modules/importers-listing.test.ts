// A package's file listing (analysis/modules/importers.ts) is trusted for ten seconds; after that, a
// listing whose folders have the mtimes they had is kept instead of being read again. A caller added,
// removed or moved in any folder of the package must still be seen after the ten seconds, as before.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DetectContext } from '../../../analysis/detect-context.js';
import { callsOfExport } from '../../../analysis/modules/importers.js';

/** The modules `callsOfExport` finds calling `start` of `lib.js` in `root`, as a rule linting it would see them. */
function callers(root: string): string[] | undefined {
  let found: string[] | undefined;
  new Linter({ configType: 'flat', cwd: root }).verify(
    'export function start() {}',
    {
      plugins: {
        probe: {
          rules: {
            callers: {
              create(context: unknown) {
                found = callsOfExport(context as DetectContext, 'start')?.map((m) => m.module.path.slice(root.length + 1));
                return {};
              },
            },
          },
        },
      },
      languageOptions: { parser: tseslint.parser as never, sourceType: 'module' },
      rules: { 'probe/callers': 'error' },
    },
    join(root, 'lib.js'),
  );
  return found?.sort();
}

/** Every folder of the package as if last changed a minute ago. */
function settle(...folders: string[]): void {
  const past = new Date(Date.now() - 60_000);
  for (const folder of folders) utimesSync(folder, past, past);
}

describe('the package listing behind callsOfExport', () => {
  afterEach(() => vi.useRealTimers());

  it('sees a caller added, moved or removed in a nested folder once the listing is no longer trusted', () => {
    const root = mkdtempSync(join(tmpdir(), 'replica-guard-listing-'));
    try {
      writeFileSync(join(root, 'package.json'), '{"name":"p"}');
      writeFileSync(join(root, 'lib.js'), 'export function start() {}');
      mkdirSync(join(root, 'src', 'jobs'), { recursive: true });
      writeFileSync(join(root, 'src', 'a.js'), "import { start } from '../lib.js';\nstart();\n");
      settle(root, join(root, 'src'), join(root, 'src', 'jobs'));
      vi.useFakeTimers({ toFake: ['Date'] });
      expect(callers(root)).toEqual(['src/a.js']);

      writeFileSync(join(root, 'src', 'jobs', 'b.js'), "import { start } from '../../lib.js';\nstart();\n");
      expect(callers(root)).toEqual(['src/a.js']); // trusted for ten seconds
      vi.setSystemTime(Date.now() + 11_000);
      expect(callers(root)).toEqual(['src/a.js', 'src/jobs/b.js']);

      settle(root, join(root, 'src'), join(root, 'src', 'jobs'));
      vi.setSystemTime(Date.now() + 11_000);
      expect(callers(root)).toEqual(['src/a.js', 'src/jobs/b.js']); // unchanged folders: the same files
      unlinkSync(join(root, 'src', 'a.js'));
      vi.setSystemTime(Date.now() + 11_000);
      expect(callers(root)).toEqual(['src/jobs/b.js']);

      // A nested package.json makes its folder another package: its callers drop out.
      settle(root, join(root, 'src'), join(root, 'src', 'jobs'));
      vi.setSystemTime(Date.now() + 11_000);
      expect(callers(root)).toEqual(['src/jobs/b.js']);
      writeFileSync(join(root, 'src', 'jobs', 'package.json'), '{"name":"jobs"}');
      vi.setSystemTime(Date.now() + 11_000);
      expect(callers(root)).toEqual([]);
      unlinkSync(join(root, 'src', 'jobs', 'package.json'));
      vi.setSystemTime(Date.now() + 11_000);
      expect(callers(root)).toEqual(['src/jobs/b.js']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
