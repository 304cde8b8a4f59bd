// `concurrency`: the per-file phase in worker threads gives the serial run's report and files.
// A temp project holds a few fixture inputs of every transform (globbed), filler files, and one
// file that does not parse; it is copied twice, once per mode, and both runs write.
// `concurrency: 2` is this thread plus one worker, both taking files from one queue; the worker
// is proven used by this thread's `Engine.prototype.transformPath` (slowed down there, so the
// worker has time to start) running for fewer files than the per-file phase has. That phase gets
// only the files some transform's text pre-filter passes: the fillers that name nothing are done
// in the run's first pass over the text, and never reach it.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { globSync } from 'tinyglobby';
import { afterAll, afterEach, describe, expect, test, vi } from 'vitest';
import { Engine, runCodemod, type CodemodOptions, type CodemodReport } from '../../codemods/engine/engine.js';
import {
  autoConcurrency,
  CodemodWorkerError,
  fileWorkerScript,
  transformInWorkers,
  type WorkerScript,
} from '../../codemods/engine/worker-pool.js';

const here = dirname(fileURLToPath(import.meta.url));
const fixturesDir = join(here, 'fixtures');
const scratch = mkdtempSync(join(tmpdir(), 'replica-codemod-concurrency-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

const BROKEN = `import cron from 'node-cron';\ncron.schedule('0 * * * *', () => {\n`;
const PER_TRANSFORM = 3;
const FILLERS = 150;
/**
 * Every filler is decided from its text: two in three pass no transform's text pre-filter, and
 * the third (a scheduler named in a comment) passes it but no rule's own pre-check, so none is parsed.
 */
const UNPARSED_FILLERS = FILLERS;
/** Blocks this thread, as a slow file would. */
const block = (ms: number): void => void Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** A project with fixture inputs (CommonJS ones in their own package), fillers and a broken file. */
function template(): { dir: string; fixtures: number } {
  const dir = join(scratch, 'template');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: '@acme/svc', type: 'module' }));
  const inputs = globSync('*/*.input.*', { cwd: fixturesDir }).sort();
  const picked = [...new Set(inputs.map((i) => dirname(i)))].flatMap((t) => inputs.filter((i) => dirname(i) === t).slice(0, PER_TRANSFORM));
  for (const input of picked) {
    const text = readFileSync(join(fixturesDir, input), 'utf8');
    const commonjs = /\brequire\(/.test(text) && !/^import /m.test(text);
    const folder = join(dir, commonjs ? 'cjs' : 'src', dirname(input));
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, basename(input).replace('.input.', '.')), text);
  }
  mkdirSync(join(dir, 'cjs'), { recursive: true });
  writeFileSync(join(dir, 'cjs', 'package.json'), JSON.stringify({ name: '@acme/svc', type: 'commonjs' }));
  mkdirSync(join(dir, 'src', 'filler'), { recursive: true });
  for (let i = 0; i < FILLERS; i++) {
    // Every third filler passes the text pre-filter (it names a scheduler) but no rule's pre-check.
    const text = i % 3 === 0 ? `// not node-cron, just its name\nexport const n${i} = ${i};\n` : `export const n${i} = ${i};\n`;
    writeFileSync(join(dir, 'src', 'filler', `f${String(i).padStart(2, '0')}.ts`), text);
  }
  writeFileSync(join(dir, 'src', 'broken.ts'), BROKEN);
  return { dir, fixtures: picked.length };
}

const { dir: templateDir, fixtures } = template();
let copies = 0;
const copy = (): string => {
  const dir = join(scratch, `copy-${(copies += 1)}`);
  cpSync(templateDir, dir, { recursive: true });
  return dir;
};
const run = (cwd: string, options: CodemodOptions = {}): Promise<CodemodReport> =>
  runCodemod({ cwd, paths: ['.'], force: true, ...options });
/** A report without what names its folder (absolute paths), for comparing two copies. */
const portable = (report: CodemodReport, dir: string): unknown => JSON.parse(JSON.stringify(report).replaceAll(dir, '<dir>')) as unknown;
const tree = (dir: string): Record<string, string> =>
  Object.fromEntries(
    globSync('**/*', { cwd: dir, dot: true })
      .sort()
      .map((f) => [f, readFileSync(join(dir, f), 'utf8')]),
  );

describe('concurrency', { timeout: 180_000 }, () => {
  test('concurrency 2 gives the serial report and writes the same files', async () => {
    const serialDir = copy();
    const parallelDir = copy();
    const original = Engine.prototype.transformPath;
    const transformPath = vi.spyOn(Engine.prototype, 'transformPath');
    const serial = await run(serialDir);
    const files = serial.filesScanned;
    const parsed = files - UNPARSED_FILLERS;
    expect(transformPath).toHaveBeenCalledTimes(parsed);
    transformPath.mockClear();
    transformPath.mockImplementation(function (this: Engine, path) {
      block(100);
      return original.call(this, path);
    });
    const progress: Array<[number, number]> = [];
    const parallel = await run(parallelDir, {
      concurrency: 2,
      minFilesForWorkers: 1,
      onProgress: (done, total) => progress.push([done, total]),
    });
    expect(transformPath.mock.calls.length).toBeLessThan(parsed);

    // The run did real work: rewrites and follow-ups across the transforms, and the broken file.
    expect(files).toBe(fixtures + FILLERS + 1);
    expect(serial.changes.length).toBeGreaterThanOrEqual(5);
    expect(serial.manual.length).toBeGreaterThan(0);
    expect(serial.errors.map((e) => e.file)).toEqual(['src/broken.ts']);
    expect(serial.written).toBe(true);
    expect(portable(parallel, parallelDir)).toEqual(portable(serial, serialDir));
    expect(parallel.changes.map((c) => c.file)).toEqual(serial.changes.map((c) => c.file));
    expect(tree(parallelDir)).toEqual(tree(serialDir));
    expect(tree(serialDir)).not.toEqual(tree(templateDir));
    // Progress counts every file of the per-file phase once, then the final tick.
    expect(progress).toEqual([...Array.from({ length: parsed }, (_, i): [number, number] => [i + 1, parsed]), [parsed, parsed]]);
  });

  test('a file whose transform throws is in errors in both modes; a dry run writes nothing', async () => {
    const dir = copy();
    const serial = await run(dir, { dryRun: true });
    const parallel = await run(dir, { dryRun: true, concurrency: 2, minFilesForWorkers: 1 });
    const broken = { file: 'src/broken.ts', message: expect.stringMatching(/^Parsing error: /) as unknown };
    expect(serial.errors).toEqual([broken]);
    expect(parallel.errors).toEqual(serial.errors);
    expect(parallel).toEqual(serial);
    expect(tree(dir)).toEqual(tree(templateDir));
  });

  test('below minFilesForWorkers (default 200) the run stays in this thread', async () => {
    const transformPath = vi.spyOn(Engine.prototype, 'transformPath');
    const report = await run(copy(), { dryRun: true, concurrency: 2 });
    expect(report.filesScanned).toBeLessThan(200);
    expect(transformPath).toHaveBeenCalledTimes(report.filesScanned - UNPARSED_FILLERS);
  });

  test('a concurrency that is not a positive integer is a usage error', async () => {
    for (const concurrency of [0, -1, 1.5, Number.NaN]) {
      await expect(run(templateDir, { dryRun: true, concurrency })).rejects.toThrow(
        `concurrency must be a positive integer, got ${concurrency}`,
      );
    }
  });

  test('auto is the idle cores (cores − floor(1-minute load)), between 1 and 8', () => {
    expect(autoConcurrency(2, 0.3)).toBe(2);
    expect(autoConcurrency(2, 1.5)).toBe(1);
    expect(autoConcurrency(2, 5)).toBe(1);
    expect(autoConcurrency(4, 1.2)).toBe(3);
    expect(autoConcurrency(32, 0)).toBe(8);
  });

  test('the worker script resolves to the source entry under tsx', () => {
    const script = fileWorkerScript();
    expect(script?.eval).toBe(true);
    expect(String(script?.entry)).toMatch(/tsImport\("file:\/\/[^"]*\/codemods\/engine\/file-worker\.ts"/);
  });
});

describe('a worker that dies fails the run', { timeout: 60_000 }, () => {
  const paths = Array.from({ length: 20 }, (_, i) => `/nowhere/f${i}.ts`);
  const script = (name: string, text: string): WorkerScript => {
    const file = join(scratch, name);
    writeFileSync(file, text);
    return { entry: pathToFileURL(file) };
  };
  const setup = { transforms: ['guard-schedules'] };

  test('exit mid-batch: a CodemodWorkerError naming the exit code and the files', async () => {
    const exits = script(
      'exits.mjs',
      `import { parentPort } from 'node:worker_threads';\nparentPort.on('message', () => process.exit(3));\n`,
    );
    const failure = transformInWorkers(paths, setup, { workers: 2, script: exits });
    await expect(failure).rejects.toBeInstanceOf(CodemodWorkerError);
    await expect(failure).rejects.toThrow(/a codemod worker exited \(code 3\) while transforming \/nowhere\/f\d+\.ts/);
  });

  test('an uncaught exception: a CodemodWorkerError with its message', async () => {
    const throws = script(
      'throws.mjs',
      `import { parentPort } from 'node:worker_threads';\nparentPort.on('message', () => { throw new Error('boom in worker'); });\n`,
    );
    await expect(transformInWorkers(paths, setup, { workers: 2, script: throws })).rejects.toThrow(
      /a codemod worker crashed while transforming .*: boom in worker/,
    );
  });

  test('the real worker with an unknown transform fails instead of hanging', async () => {
    const real = fileWorkerScript()!;
    await expect(transformInWorkers(paths, { transforms: ['no-such-transform'] }, { workers: 2, script: real })).rejects.toThrow(
      /a codemod worker crashed.*unknown transform: no-such-transform/,
    );
  });

  test('the real worker answers every path in order, unreadable ones as read errors', async () => {
    const outcomes = await transformInWorkers(paths, setup, { workers: 2, script: fileWorkerScript()!, batchSize: 3 });
    expect(outcomes.map((o) => o.path)).toEqual(paths);
    expect(outcomes.every((o) => 'readError' in o && /ENOENT/.test(o.readError))).toBe(true);
  });
});

describe('replica-codemod --concurrency', { timeout: 120_000 }, () => {
  const cli = resolve(here, '../../codemods/engine/cli.ts');
  const tsx = import.meta.resolve('tsx');
  const cliRun = (...args: string[]) =>
    spawnSync(process.execPath, ['--import', tsx, cli, ...args], {
      cwd: templateDir,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    });

  test.each(['0', '-1', 'abc', '2.5'])('rejects %s with exit 2 and a message naming the flag and the value', (value) => {
    const result = cliRun('--dry-run', '--concurrency', value, 'src/filler');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`--concurrency must be a positive integer or 'auto', got '${value}'`);
  });

  test('accepts a positive integer and auto', () => {
    for (const value of ['2', 'auto']) {
      const result = cliRun('--dry-run', '--concurrency', value, 'src/filler');
      expect(result.stderr).toBe('');
      expect(result.status).toBe(0);
      expect(result.stdout).toContain(`${FILLERS} files scanned`);
    }
  });
});
