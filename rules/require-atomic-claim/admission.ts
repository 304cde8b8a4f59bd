// Which claim shapes a file can hold, from its text, before any AST work: most files are turned
// away here. Without an update or delete of some kind in the file there is nothing to report, and a
// pending read is recognised only by a status-like column or queue-like table name. Both are asked
// of the file's own text first (comments only add words), so most files are turned away without a
// copy of their text; the comment-free text, and whole names, only for the few left. A
// find-then-create claim (marker-claims.ts) needs neither: a lookup, a create and a run, lock or
// idempotency word in the text admit the file for that shape alone.
import { codeTextOf } from '../../analysis/source/code-text.js';
import { mayMentionClaimVocabulary, namesClaimVocabulary } from './mentions.js';
import { importsProjectModule } from './handed-elsewhere.js';
import { mayPairFlags, pairedFlags } from './flag-pairs.js';
import { mayPairSqlFlags, sqlPairedFlags } from './sql-flag-pairs.js';
import { CREATE_TEXT, mayLookUpMarkerTable } from './marker-claims.js';

type SourceCode = Readonly<{ text: string }> & Parameters<typeof codeTextOf>[0];

/** An update or delete of some kind (one pass over the text; `Update`/`DELETE` match too). */
const UPDATE_WORDS = /pdate|PDATE|elete|ELETE|save|remove|destroy|del\(/;
/** …or a running flag's word, which a project helper may set (flag-claims.ts): in the same one pass. */
const UPDATE_OR_FLAG_WORDS = new RegExp(
  `${UPDATE_WORDS.source}|unning|UNNING|rocessing|ROCESSING|yncing|xecuting|mporting|xporting|n_?[Pp]rogress`,
);

/** Which shapes a file can hold: pending-row claims, running flags, find-then-create markers; and the file's paired flags. */
export interface AdmittedShapes {
  claims: boolean;
  flags: boolean;
  /** Asked at the first database call collected (most admitted files hold none). */
  markers: () => boolean;
  /** Names the file filters `false` and writes `true`: states of its own (flag-pairs.ts). */
  paired: string[];
}

const markerText = (text: string): boolean => CREATE_TEXT.test(text) && mayLookUpMarkerTable(text);
const MARKERS_ONLY: AdmittedShapes = { claims: false, flags: false, markers: () => true, paired: [] };
const NO_PAIRS: string[] = [];

/** The flags the file filters `false` and writes `true`, asked of the comment-free text only when the raw text may hold a pair. */
function pairedIn(sourceCode: SourceCode): string[] {
  const text = sourceCode.text;
  const builder = mayPairFlags(text);
  const sql = mayPairSqlFlags(text); // `WHERE mailed = 0`, `SET mailed = 1` (sql-flag-pairs.ts)
  if ((!builder && !sql) || !UPDATE_WORDS.test(text)) return NO_PAIRS;
  const code = codeTextOf(sourceCode);
  const pairs = builder ? pairedFlags(code) : NO_PAIRS;
  return sql ? [...pairs, ...sqlPairedFlags(code)] : pairs;
}

/**
 * The shapes `sourceCode` can hold, with `configured` (the options' columns and tables) among the
 * vocabulary; `undefined` when none. A paired flag's name is in the text wherever the comment-free
 * text holds it, and it names a state like a configured name: so the file's paired flags are asked
 * only when the answer still depends on them — first for a file without the built-in or configured
 * vocabulary (their one way in), then when the comment-free text holds no whole vocabulary name.
 * The relative import (one cheap expression) before the update words' sixteen alternatives; of the
 * comment-free text, whether a state is named before its update and import words.
 */
export function admittedShapes(sourceCode: SourceCode, configured: readonly string[]): AdmittedShapes | undefined {
  const text = sourceCode.text;
  const vocabulary = mayMentionClaimVocabulary(text, configured);
  let paired = vocabulary ? undefined : pairedIn(sourceCode);
  // No update in the file, but a project module it imports may mark the rows (handed-elsewhere.ts).
  const claimText = vocabulary ? importsProjectModule(text) || UPDATE_OR_FLAG_WORDS.test(text) : paired!.length > 0;
  if (!claimText) return markerText(text) && markerText(codeTextOf(sourceCode)) ? MARKERS_ONLY : undefined;
  const code = codeTextOf(sourceCode);
  // Whether a state is named — a paired flag, or a whole vocabulary name — before the update and import words: a
  // file naming none (most of those with a vocabulary word) holds neither a claim nor a flag, whatever it updates.
  const named = (paired ??= pairedIn(sourceCode)).length > 0 || namesClaimVocabulary(code, configured);
  const updates = named && UPDATE_WORDS.test(code);
  const mayFlag = updates || (named && UPDATE_OR_FLAG_WORDS.test(code));
  const imports = named && !updates && importsProjectModule(code);
  const claims = updates || imports;
  let markers: boolean | undefined;
  if (!mayFlag && !claims && !(markers = markerText(code))) return undefined;
  return { claims, flags: mayFlag, markers: () => (markers ??= markerText(code)), paired };
}
