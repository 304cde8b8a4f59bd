import { defineConfig } from 'vitest/config';

// Two projects: `static` (rules, codemods, meta) needs no servers and starts instantly;
// `servers` (runtime, e2e) gets real redis-server, PostgreSQL, PgBouncer and nats-server from the
// global setup. Run one with `npx vitest run --project static`.
export default defineConfig({
  test: {
    reporters: ['default', './test/harness/summary-reporter.ts'],
    projects: [
      {
        test: {
          name: 'static',
          // Projects with different worker limits run as ordered groups: static first.
          sequence: { groupOrder: 0 },
          include: [
            'test/analysis/**/*.test.ts',
            'test/rules/**/*.test.ts',
            'test/codemods/**/*.test.ts',
            'test/meta/**/*.test.ts',
            'test/adoption/**/*.test.ts',
            'test/oxlint/**/*.test.ts',
          ],
          testTimeout: 60_000,
          // vitest's default is one worker fewer than the cores: one worker on a 2-core CI machine. These
          // files are CPU-bound and independent (each writes only its own temp dirs), so use every core.
          maxWorkers: '100%',
          // The files share no module state they do not reset; re-importing the plugin's sources for each of
          // ~340 files cost more than their tests (vitest's `import` time).
          isolate: false,
        },
      },
      {
        test: {
          name: 'servers',
          sequence: { groupOrder: 1 },
          include: ['test/runtime/**/*.test.ts', 'test/e2e/**/*.test.ts'],
          globalSetup: ['test/harness/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // Each file runs real processes against shared servers; two cores, so keep it modest.
          maxWorkers: 2,
        },
      },
    ],
  },
});
