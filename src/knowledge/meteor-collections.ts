// Meteor's MongoDB collections (`new Mongo.Collection('jobs')`) as `no-read-then-write` sees them:
// Meteor 3's async reads and writes take a document's id or a MongoDB filter, and an update
// document as MongoDB's driver does (`Jobs.updateAsync(id, { $set: { n: job.n + 1 } })`).
// Their names are Meteor's own, so they are told by name; the rule's first text test does not
// look for them (a file needs another write word, as every file does).

/** Reads of one document: `Jobs.findOneAsync(id)`. */
export const METEOR_DOCUMENT_READS: readonly string[] = ['findOneAsync'];

/** Writes with a filter (or an id) first and a MongoDB update document second. */
export const METEOR_UPDATES: readonly string[] = ['updateAsync', 'upsertAsync'];
