import type { Knex } from 'knex';

/** Hands out tools; building them runs none of them. */
export const createSchemaTools = (knex: Knex) => {
  const state: { synced?: boolean } = {};
  return {
    async sync() {
      await knex.migrate.latest();
      state.synced = true;
    },
    rollback: async () => knex.migrate.rollback(),
    nested: { up: () => knex.migrate.up() },
  };
};

/** An arrow whose body is the object handed out. */
export const makeMigrationTools = (knex: Knex) => ({
  latest: () => knex.migrate.latest(),
});

/** Runs the migrator when called. */
export async function prepareSchema(knex: Knex) {
  await knex.migrate.latest();
}

/** Runs the migrator inside a callback it hands to a call: that callback runs. */
export async function migrateDatabaseLocked(knex: Knex, withLock: (fn: () => Promise<void>) => Promise<void>) {
  await withLock(async () => {
    await knex.migrate.latest();
  });
}

