// Umzug: the service builds its Umzug (storage, context, migrations glob); the run calls `up()`.
import type { Migrate, MigrationClient, MigrationContext } from '../migration-client.js';

interface UmzugLike {
  up(): Promise<unknown>;
}

/** `create` gets the pinned client and the direct URL, so storage and migrations can use either. */
export function umzugMigrator(create: (client: MigrationClient, context: MigrationContext) => UmzugLike | Promise<UmzugLike>): Migrate {
  return async (client, context) => {
    const umzug = await create(client, context);
    await umzug.up();
  };
}
