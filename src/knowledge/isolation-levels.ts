// Transaction options that make the database refuse a lost update: under SERIALIZABLE isolation a
// transaction that read a row another one changed before commit fails (Prisma
// `isolationLevel: Prisma.TransactionIsolationLevel.Serializable`, TypeORM
// `manager.transaction('SERIALIZABLE', …)`, Sequelize `ISOLATION_LEVELS.SERIALIZABLE`, knex
// `{ isolationLevel: 'serializable' }`): one writer commits, the other is told to retry.

/** Text of a transaction runner's argument that asks for SERIALIZABLE isolation. */
export const SERIALIZABLE_ISOLATION = /\bserializable\b/i;

/** A statement that opens a SERIALIZABLE transaction on its connection (`BEGIN ISOLATION LEVEL SERIALIZABLE`, `SET TRANSACTION …`). */
export const SERIALIZABLE_BEGIN = /^\s*(?:BEGIN|START\s+TRANSACTION|SET\s+TRANSACTION)\b[^;]*\bISOLATION\s+LEVEL\s+SERIALIZABLE\b/i;

/** A statement that ends the connection's transaction. */
export const TRANSACTION_END = /^\s*(?:COMMIT|ROLLBACK|END)\b/i;
