// Where a Mongoose schema declares instance methods: a function registered there runs with `this`
// bound to a document loaded earlier (`trip.reserve()` after `Trip.findById(id)`), not to the model.

/** The property of a schema that holds its instance methods (`schema.methods.reserve = function () {…}`, `schema.methods = {…}`). */
export const SCHEMA_METHOD_BAG = 'methods';

/** The schema method that registers instance methods (`schema.method('reserve', fn)`, `schema.method({ reserve() {…} })`). */
export const SCHEMA_METHOD_REGISTRAR = 'method';

/** The same two in a file's text, for a cheap test before any AST work. */
export const SCHEMA_METHOD_TEXT = /\.methods\s*(?:\.|=|\[)|\.method\s*\(/;

/** The base class of a Sequelize model (`class Seat extends Model`, `extends Sequelize.Model`): `this` of its instance methods is a loaded row. */
export const ROW_MODEL_BASE = 'Model';

/** A class that extends it, in a file's text, for a cheap test before any AST work. */
export const ROW_MODEL_CLASS_TEXT = /\bextends\s+(?:[\w$]+\s*\.\s*)?Model\b/;
