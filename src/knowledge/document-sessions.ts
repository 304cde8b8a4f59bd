// MongoDB's multi-document transactions (the driver and Mongoose): a session starts one
// (`session.startTransaction()`, or `session.withTransaction(async () => …)`, Mongoose's
// `connection.transaction(async (session) => …)`), and each operation joins it by naming the session
// (`Model.findById(id).session(session)`, `{ session }` in its options). A transaction that writes a
// document another one changed after its snapshot fails with a write conflict (and the callback
// forms retry it, reading again): a read and its write-back in one transaction lose no update. An SQL
// transaction at the default isolation gives no such guarantee; it joins by `transaction`, not here.

/** The chain method and the option key that make an operation part of a session (`.session(s)`, `{ session: s }`). */
export const SESSION_KEY = 'session';

/** Methods of a session that run a callback inside a transaction (`session.withTransaction(fn)`). */
export const SESSION_TRANSACTION_RUNNERS: readonly string[] = ['withTransaction'];

/** Methods of a session that start a transaction for the operations after it (`session.startTransaction()`). */
export const SESSION_TRANSACTION_STARTS: readonly string[] = ['startTransaction'];

/** Methods that end a session's transaction: an operation after one is no longer in it. */
export const SESSION_TRANSACTION_ENDS: readonly string[] = ['commitTransaction', 'abortTransaction', 'endSession'];
