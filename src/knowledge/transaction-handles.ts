// Which handles a statement is sent on, for how long a row lock it takes lasts: a lock lives until
// its transaction ends, and a statement sent on the pool itself (or on a client checked out of it,
// with no `BEGIN`) is its own transaction.
/**
 * A class field that holds the pool or the ORM's client itself, not a transaction (`this.pool`,
 * `this.prisma`, `this.knex`, `this.db`, `this.dataSource`): a statement sent on it outside
 * `BEGIN … COMMIT` is its own transaction.
 */
export const POOL_FIELD = /^(?:pool|\w*Pool|prisma|prismaService|knex|db|database|dataSource|sequelize|sql|pg|pgPool)$/;

/** Option keys that hand a statement a transaction (Sequelize `{ transaction: t }`, Bookshelf `{ transacting: trx }`). */
export const TRANSACTION_OPTION_KEYS: ReadonlySet<string> = new Set(['transaction', 'transacting']);

/** Methods that check a client out of a pool (`await pool.connect()`, mysql2 `getConnection()`): without `BEGIN` on it, each statement is its own transaction. */
export const POOL_CHECKOUT_METHODS: ReadonlySet<string> = new Set(['connect', 'getConnection', 'acquire', 'reserve']);
