// Where a web framework hands one request to the app's code: the function runs because a client
// (a user, an operator's click) asked for the one thing the request names, not on a timer or for
// a queue. Used by require-atomic-claim to tell a request acting on the row it names from a
// worker picking pending rows.

/** Route-registering method names of Express, Koa routers, Fastify and Hono (`router.post('/x', handler)`). */
export const ROUTE_METHODS: ReadonlySet<string> = new Set(['get', 'post', 'put', 'patch', 'delete', 'del', 'all']);

/** NestJS route and GraphQL resolver method decorators (`@Post(':id/approve')`, `@Mutation()`). */
export const ROUTE_DECORATORS: ReadonlySet<string> = new Set(['Get', 'Post', 'Put', 'Patch', 'Delete', 'All', 'Mutation', 'Query']);

/** Method names a tRPC-style procedure is given its resolver with (`adminProcedure.input(…).mutation(fn)`). */
export const PROCEDURE_RESOLVERS: ReadonlySet<string> = new Set(['mutation', 'query']);

/** A receiver name that is a procedure builder (`publicProcedure`, `adminBookmarksProcedure`, `procedure`). */
export const PROCEDURE_NAME = /procedure$/i;

/** Exported function names a Next.js App Router route module answers HTTP methods with. */
export const ROUTE_EXPORTS: ReadonlySet<string> = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The folders of a Next.js pages-router API route (`pages/api/users.ts`, `src/pages/api/admin/migrate.ts`):
 * the module's default export answers the requests of its path.
 */
export const PAGES_API_FOLDERS: readonly string[] = ['pages', 'api'];

/** The directive that makes a module's (or a function's) exports Next.js / React server actions. */
export const SERVER_ACTION_DIRECTIVE = 'use server';

/**
 * Parameter names of a handler written apart from its route (`export async function import_(req,
 * res)` in a controllers module, Fastify's `(request, reply)`): the first takes the request, the
 * second the response.
 */
export const HANDLER_REQUEST_PARAMETER = /^req(?:uest)?$/;
export const HANDLER_RESPONSE_PARAMETER = /^(?:res|response|reply)$/;

/** Methods that register a middleware (`app.use(async (req, res, next) => …)`): it runs on the way to every route, on every replica, not for one request's path. */
export const MIDDLEWARE_METHODS: ReadonlySet<string> = new Set(['use']);

/**
 * A GraphQL field's resolver: the `resolve` function of a field's options, beside its `type`
 * (graphql-js `fields: { x: { type, resolve } }`, Pothos `t.field({ type, resolve })`, Nexus), or a
 * function of a resolver map's root operation type (`Mutation: { renameItem: async (_, args) => … }`).
 * The server calls it for one operation a client sent.
 */
export const GRAPHQL_RESOLVER_KEY = 'resolve';
export const GRAPHQL_FIELD_TYPE_KEY = 'type';
export const GRAPHQL_OPERATION_TYPES: ReadonlySet<string> = new Set(['Query', 'Mutation']);
