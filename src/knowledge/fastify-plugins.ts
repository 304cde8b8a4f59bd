// Fastify's plugins: modules whose exported function Fastify (or `@fastify/autoload`) calls with
// the server instance as it starts, on every replica. Plain data.

/** Modules whose import says the file is a Fastify module: the framework and its scoped plugins. */
export const FASTIFY_MODULE = /^(?:fastify(?:-[\w-]+)?|@fastify\/[\w-]+)$/;

/** The wrapper that makes a function a plugin sharing its decorations (`fp(async (app) => …)`). */
export const PLUGIN_WRAPPER_MODULES: readonly string[] = ['fastify-plugin'];

/** Members of the instance that are Fastify's own, not a decoration the project added (`app.log.info(sql)` logs). */
export const INSTANCE_OWN_MEMBERS: ReadonlySet<string> = new Set(['log', 'config', 'server', 'prefix']);

/** Whether a file's text may hold DDL a plugin sends as it loads: it names Fastify and holds `CREATE TABLE`-like DDL. */
export const PLUGIN_DDL_WORDS: readonly RegExp[] = [/fastify/, /\b(?:create|alter)\s+table\b/i];
