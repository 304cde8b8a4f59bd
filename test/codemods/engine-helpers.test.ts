// The engine's small pieces: edits, markers, import merging, file style.
import { describe, expect, test } from 'vitest';
import { fileStyleOf } from '../../codemods/engine/file-style.js';
import { markerAbove, markerEdits } from '../../codemods/engine/manual-marker.js';
import { runtimeImportEdits as replicaGuardImportEdits } from '../../rules/rewrites/runtime-import.js';
import { runDetection } from '../../codemods/engine/run-detection.js';
import { applyEdits, lineAt, OverlappingEditsError } from '../../codemods/engine/text-edits.js';
import { Engine } from '../../codemods/engine/engine.js';
import { SCHEDULER_PREFILTER } from '../../codemods/transforms/guard-schedules/index.js';
import { findTransforms } from '../../codemods/registry.js';
import { removalEdit } from '../../codemods/engine/statements.js';
import { SCHEDULER_MODULES } from '../../src/knowledge/schedulers.js';

function withImport(path: string, text: string, names: string[], packageType: 'module' | 'commonjs' = 'module'): string {
  const { ast } = runDetection(path, text, [], { packageType });
  const style = fileStyleOf(path, text, ast, packageType);
  return applyEdits(text, replicaGuardImportEdits(text, ast, style, names));
}

describe('removalEdit', () => {
  const removed = (text: string, statement: string): string => {
    const start = text.indexOf(statement);
    return applyEdits(text, [removalEdit(text, { range: [start, start + statement.length] })]);
  };
  test('a statement alone on its line goes with the line', () => {
    expect(removed('a();\n  await migrate();\nb();\n', 'await migrate();')).toBe('a();\nb();\n');
  });
  test('a comment after it stays, at the statement indentation', () => {
    expect(removed('a();\n    await knex.migrate.latest(); // the schema first\nb();\n', 'await knex.migrate.latest();')).toBe(
      'a();\n    // the schema first\nb();\n',
    );
    expect(removed('  await migrate();  /* at start */\n', 'await migrate();')).toBe('  /* at start */\n');
  });
  test('code beside it on the line stays where it is', () => {
    expect(removed('x(); await migrate(); y();\n', 'await migrate();')).toBe('x();  y();\n');
  });
});

describe('applyEdits', () => {
  test('applies replacements and insertions, same-offset insertions in order', () => {
    expect(
      applyEdits('abcdef', [
        { start: 1, end: 3, text: 'X' },
        { start: 4, end: 4, text: '1' },
        { start: 4, end: 4, text: '2' },
      ]),
    ).toBe('aXd12ef');
  });
  test('refuses overlapping edits', () => {
    expect(() =>
      applyEdits('abcdef', [
        { start: 1, end: 4, text: '' },
        { start: 3, end: 5, text: '' },
      ]),
    ).toThrow(OverlappingEditsError);
  });
  test('lineAt is 1-based', () => {
    expect(lineAt('a\nb\nc', 0)).toBe(1);
    expect(lineAt('a\nb\nc', 4)).toBe(3);
  });
});

describe('manual markers', () => {
  const style = { quote: "'", semicolons: true, eol: '\n', indentUnit: '  ', module: 'esm' } as const;
  test('one marker per line, indented like the line, never twice', () => {
    const text = 'function f() {\n  setInterval(sweep, 1000);\n}\n';
    const offset = text.indexOf('setInterval');
    const once = applyEdits(
      text,
      markerEdits(
        text,
        [
          { offset, reason: 'why' },
          { offset: offset + 3, reason: 'other' },
        ],
        style,
      ),
    );
    expect(once).toBe('function f() {\n  // replica-guard: manual — why\n  setInterval(sweep, 1000);\n}\n');
    expect(markerAbove(once, once.indexOf('setInterval'))).toBe('why');
    expect(markerEdits(once, [{ offset: once.indexOf('setInterval'), reason: 'why' }], style)).toEqual([]);
  });
});

describe('replica-guard import', () => {
  test('merges into a multi-line named import one per line', () => {
    expect(withImport('/x/a.ts', "import {\n  perReplica,\n} from 'replica-guard';\nfoo();\n", ['claimPeriod'])).toBe(
      "import {\n  perReplica,\n  claimPeriod,\n} from 'replica-guard';\nfoo();\n",
    );
  });
  test('a type-only import is not merged into', () => {
    expect(withImport('/x/a.ts', "import type { Logger } from 'replica-guard';\n", ['claimPeriod'])).toBe(
      "import type { Logger } from 'replica-guard';\nimport { claimPeriod } from 'replica-guard';\n",
    );
  });
  test('a name already imported (or aliased from it) is not added again', () => {
    const text = "import { claimPeriod as claim } from 'replica-guard';\n";
    expect(withImport('/x/a.ts', text, ['claimPeriod'])).toBe(text);
  });
  test('no imports: before the first statement, after directives in CommonJS', () => {
    expect(withImport('/x/a.ts', '// header\nfoo();\n', ['claimPeriod'])).toBe(
      "// header\nimport { claimPeriod } from 'replica-guard';\n\nfoo();\n",
    );
    expect(withImport('/x/a.cjs', "'use strict';\nfoo();\n", ['claimPeriod'], 'commonjs')).toBe(
      "'use strict';\nconst { claimPeriod } = require('replica-guard');\nfoo();\n",
    );
  });
  test('keeps double quotes, no semicolons and CRLF', () => {
    expect(withImport('/x/a.ts', 'import x from "x"\r\nx()\r\n', ['claimPeriod'])).toBe(
      'import x from "x"\r\nimport { claimPeriod } from "replica-guard"\r\nx()\r\n',
    );
  });
});

test('the pre-filter words come from the scheduler catalogue', () => {
  for (const module of SCHEDULER_MODULES) expect(SCHEDULER_PREFILTER).toContain(module);
  expect(SCHEDULER_PREFILTER).toContain('setInterval');
});

test('a file that mentions no scheduler is never parsed', () => {
  const engine = new Engine(findTransforms(), { service: 'svc' });
  expect(engine.transformFile('/x/a.ts', 'this is not ( valid').text).toBe('this is not ( valid');
  expect(() => engine.transformFile('/x/a.ts', 'setInterval( not valid')).toThrow(/Parsing error/);
});
