// Marks whose second setting changes nothing a user sees: a row archived, closed, deleted, hidden or read
// twice is archived, closed, deleted, hidden or read once. A state checked on a row, then set to one of
// these and saved (`if (note.archived) throw …; note.archived = true; await note.save()`) is a
// repeat of the same write, not a check-then-act race (no-read-then-write's checked states).

/** Field names of such marks (camelCase read as snake_case, an `is_` / `has_been_` prefix allowed). */
const IDEMPOTENT_MARK_FIELD =
  /^(?:is_|has_been_)?(?:archived|closed|deleted|removed|hidden|read|seen|viewed|pinned|starred|muted|favou?rited|bookmarked|dismissed|acknowledged)$/i;

/** State values that say the same (`status: 'read'`, `Status.ARCHIVED`). */
export const IDEMPOTENT_MARK_VALUE = /^(?:archived|closed|deleted|removed|hidden|read|seen|viewed|dismissed|acknowledged)$/i;

/** Whether a field or column name is an idempotent mark. */
export function isIdempotentMark(name: string): boolean {
  return IDEMPOTENT_MARK_FIELD.test(name.replace(/([a-z0-9])([A-Z])/g, '$1_$2'));
}
