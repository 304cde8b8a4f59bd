import knex from 'knex';

export const cache = knex({ client: 'sqlite3', connection: { filename: './cache.db' }, useNullAsDefault: true });
