// Schema-write options a developer switches on by an environment variable, and how such a switch
// reads. Plain data, read by `no-in-app-migrations`.

/**
 * Schema-write options that are a developer's switch, not a migration path: TypeORM's
 * `synchronize` (its docs: never in production). Driven by an environment variable that is off
 * unless someone sets it (`process.env.TYPEORM_SYNCHRONIZE === 'true'`, `!!process.env.DB_SYNC`),
 * it writes no schema on a deployed replica. `migrationsRun` switched on the same way is the
 * service's way to migrate at start, like `POSTGRES_RUN_MIGRATIONS`, and stays reported.
 */
export const DEVELOPMENT_SCHEMA_OPTIONS: readonly string[] = ['synchronize'];

/** The name of an environment variable read as the switch of such an option (`DB_SYNC`, `TYPEORM_SYNCHRONIZE`), not a value every deployment sets (`TYPEORM_DATABASE`). */
export const SCHEMA_SWITCH_NAME = /sync/i;

/** Values an opt-in environment switch is compared with to turn it on (`=== 'true'`): unset, it is off. */
export const SWITCHED_ON_VALUES: readonly string[] = ['true', '1', 'yes', 'on', 'enabled'];
