// The options a loaded document or instance hands its own save, told apart from an entity handed
// to a repository's save.

/**
 * The options a document's or an instance's own `save` takes (Mongoose `doc.save({ session })`,
 * Sequelize `instance.save({ transaction, fields })`): an object of other keys handed to `save` is
 * the entity a repository saves (`repo.save({ ...post, views })`), not options.
 */
export const SELF_SAVE_OPTIONS: ReadonlySet<string> = new Set([
  'session',
  'transaction',
  'validateBeforeSave',
  'validateModifiedOnly',
  'timestamps',
  'safe',
  'fields',
  'silent',
  'hooks',
  'logging',
  'validate',
  'returning',
  'w',
  'j',
  'wtimeout',
  'checkKeys',
]);
