// A value read from the database, changed in JavaScript and written back: with two requests or
// two replicas doing it at once, one update is lost. The walk itself is the taint engine
// (no-read-then-write/taint-engine.ts); this file pre-checks the text, wires the engine's
// listeners and reports its findings at the end of the file.
import { createRule } from './utils/create-rule.js';
import { codeTextOf } from '../analysis/source/code-text.js';
import { LIBRARY_READS_WRITES, type DataLibrary } from '../src/knowledge/orm-reads-writes.js';
import type { ReadThenWriteFacts } from './no-read-then-write/model.js';
import {
  mentionsReadAndWrite,
  mentionsSaveHook,
  mentionsWrite,
  mentionsWriteWord,
  writeCallOffsets,
} from './no-read-then-write/mentions.js';
import { sqlKeywordsIn } from './no-read-then-write/sql-site.js';
import { ReadThenWriteEngine } from './no-read-then-write/taint-engine.js';
import { helperReadSiteOf, mayWriteAfter } from './no-read-then-write/helper-reads.js';

export type { DataLibrary } from '../src/knowledge/orm-reads-writes.js';
export type { FieldChange, ReadThenWriteFacts } from './no-read-then-write/model.js';

type MessageIds = DataLibrary;
type Options = [{ ignoreFields: string[] }];

const ATOMIC_PREFIX =
  '`{{field}}` is read, changed in JavaScript and written back; two requests or replicas doing this at once lose an update.';

const messages = Object.fromEntries(
  (Object.keys(LIBRARY_READS_WRITES) as DataLibrary[]).map((library) => [
    library,
    `${ATOMIC_PREFIX} Do the arithmetic in the database: ${LIBRARY_READS_WRITES[library].atomicForm}.`,
  ]),
) as Record<MessageIds, string>;

export const noReadThenWrite = createRule<MessageIds, Options, ReadThenWriteFacts>({
  name: 'no-read-then-write',
  meta: {
    type: 'problem',
    docs: {
      description:
        'Disallow reading a value from the database, changing it in JavaScript and writing it back (lost updates across requests and replicas)',
      recommended: true,
    },
    messages,
    schema: [
      {
        type: 'object',
        additionalProperties: false,
        properties: {
          ignoreFields: {
            type: 'array',
            items: { type: 'string' },
            uniqueItems: true,
            description: 'Column or field names never reported (values only one writer ever changes, such as a per-user cursor).',
          },
        },
      },
    ],
  },
  defaultOptions: [{ ignoreFields: [] }],
  detect(context, report) {
    const sourceCode = context.sourceCode;
    // Most files hold no read and write the rule knows: skip them before any AST work, most of
    // them on the raw text (no write word even counting comments).
    if (!mentionsWriteWord(sourceCode.text)) return {};
    const code = codeTextOf(sourceCode);
    if (!mentionsReadAndWrite(code)) return {};
    const saveHook = mentionsSaveHook(code);
    // SQL is read from this file's strings: without the keyword in one, no call sends a SQL read
    // (or write), and the SQL text of each `query(…)` call need not be built to find out.
    const { sqlReads, sqlWrites } = sqlKeywordsIn(sourceCode);
    // Every finding is made at a write: without one no read matters, and no call is followed
    // into the project's modules to learn whether it returns a row.
    if (!mentionsWrite(code, sqlWrites, saveHook)) return {};
    // A helper's read only matters to a write walked after it. SQL text may sit in a constant
    // written anywhere, and a save hook's save is the write: then every helper is followed.
    const writeOffsets = sqlWrites || saveHook ? undefined : writeCallOffsets(sourceCode.text);
    const engine = new ReadThenWriteEngine({
      sourceCode,
      ignoredFields: new Set(context.options[0]?.ignoreFields ?? []),
      sqlReads,
      sqlWrites,
      helperReadOf: (call) => helperReadSiteOf(context, call),
      helperMayMatter: (call) => !writeOffsets || mayWriteAfter(writeOffsets, call),
    });
    return {
      ...engine.listeners(),
      'Program:exit'() {
        let findings;
        try {
          findings = engine.findings();
        } catch {
          return; // a shape we did not foresee never breaks linting
        }
        for (const finding of findings) {
          report({
            messageId: finding.library,
            data: { field: finding.field },
            node: finding.node,
            ...(finding.loc ? { loc: finding.loc } : {}),
            facts: finding.facts,
          });
        }
      },
    };
  },
});

export default noReadThenWrite;
