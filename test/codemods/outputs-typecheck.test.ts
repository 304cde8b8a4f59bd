// Fixture outputs type-check: each output is compiled with `tsc` (the TypeScript API) against the
// real replica-guard types and declaration stubs for the modules it imports (test/codemods/stubs),
// and must bring no diagnostic its input did not have. Fixtures use undeclared helpers
// (`mailer.send`) and relative modules that do not exist; those errors are the input's too, so
// what is left is what the rewrite did: an `await` outside an async function, a guard called with
// the wrong arguments, a name used and not imported.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { globSync } from 'tinyglobby';
import ts from 'typescript';
import { afterAll, describe, expect, test } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const fixtures = join(here, 'fixtures');
const stubs = globSync('*.d.ts', { cwd: join(here, 'stubs'), absolute: true });

const options: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  lib: ['lib.es2023.d.ts'],
  module: ts.ModuleKind.Preserve,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  moduleDetection: ts.ModuleDetectionKind.Force,
  types: ['node'],
  typeRoots: [join(root, 'node_modules', '@types')],
  strict: true,
  allowJs: true,
  checkJs: true,
  jsx: ts.JsxEmit.Preserve,
  experimentalDecorators: true,
  esModuleInterop: true,
  skipLibCheck: true,
  noEmit: true,
  baseUrl: root,
  paths: { 'replica-guard': ['src/index.ts'] },
};

/** Each file's diagnostics as `TS<code> <message>`, positions left out, in one program. */
function diagnosticsOf(files: readonly string[]): Map<string, string[]> {
  const program = ts.createProgram([...files, ...stubs], options);
  const byFile = new Map<string, string[]>(files.map((f) => [f, []]));
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const list = diagnostic.file ? byFile.get(diagnostic.file.fileName) : undefined;
    list?.push(`TS${diagnostic.code} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`);
  }
  return byFile;
}

/** What `after` reports that `before` did not (as multisets). */
function added(before: readonly string[], after: readonly string[]): string[] {
  const left = [...before];
  return after.filter((d) => {
    const i = left.indexOf(d);
    if (i === -1) return true;
    left.splice(i, 1);
    return false;
  });
}

const outputs = globSync('*/*.output.*', { cwd: fixtures, absolute: true }).sort();
const inputOf = (output: string): string => output.replace('.output.', '.input.');

describe('fixture outputs type-check', { timeout: 240_000 }, () => {
  const before = diagnosticsOf(outputs.map(inputOf));
  const after = diagnosticsOf(outputs);

  test.each(outputs.map((o) => [o.slice(fixtures.length + 1)]))('%s brings no new diagnostic', (name) => {
    const output = join(fixtures, name);
    expect(added(before.get(inputOf(output)) ?? [], after.get(output) ?? [])).toEqual([]);
  });
});

describe('the check catches a rewrite that does not type-check', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'replica-codemod-tsc-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  test('a guard awaited in a function that is not async, and a key that is not a string', () => {
    const input = join(scratch, 'job.input.ts');
    const output = join(scratch, 'job.output.ts');
    writeFileSync(input, 'export function sweep(): void {\n  console.log(1);\n}\n');
    writeFileSync(
      output,
      "import { claimPeriod } from 'replica-guard';\nexport function sweep(): void {\n  if (!(await claimPeriod(42, 1000))) return;\n  console.log(1);\n}\n",
    );
    const found = diagnosticsOf([input, output]);
    const extra = added(found.get(input) ?? [], found.get(output) ?? []);
    expect(extra.some((d) => d.startsWith('TS1308'))).toBe(true);
    expect(extra.some((d) => d.startsWith('TS2345'))).toBe(true);
  });
});
