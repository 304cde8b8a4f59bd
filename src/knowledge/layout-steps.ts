// Names a service gives the start-up steps that lay out its schema (`ensureInvoiceColumns`,
// `createReportTables`, `setupAuditTriggers`, `initLedgerSchema`), and the statements a request
// handler sends for its own work (a read or a row write), not for the layout.

/**
 * A verb that creates or completes, then a kind of schema object the step lays out: columns,
 * tables, a schema, triggers. Not indexes (a MongoDB model's `ensureIndexes()` only builds what is
 * missing, and is not reported either), not a database (`initDatabase()` as often only connects).
 */
export const LAYOUT_STEP_NAME =
  /^(?:ensure|create|setup|setUp|init|initiali[sz]e|install|add)[A-Z]\w*?(?:Columns?|Tables?|Schemas?|Triggers?)$/;

/** The stems every such name ends in, in the text: where the calls are looked for. */
export const LAYOUT_STEP_STEMS = /(?:Columns?|Tables?|Schemas?|Triggers?)\b/g;

/** The words of those stems: a file without one has no such step. */
export const LAYOUT_STEP_WORDS: readonly string[] = ['Column', 'Table', 'Schema', 'Trigger'];

/** A statement of a request's own work: a read or a write of rows (`SELECT …`, `INSERT INTO …`, `UPDATE …`). */
export const ROW_WORK_SQL = /^\s*(?:select|insert|update|delete|with)\b/i;

/** Module names of an embedded file database, in a project module's specifier (`./sqlite`, `../db/libsql`). */
export const EMBEDDED_MODULE_WORD = /sqlite|libsql|lowdb|nedb|pglite/i;
