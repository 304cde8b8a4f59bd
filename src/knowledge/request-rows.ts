// Where a web framework's auth middleware leaves the row it loaded for the request: Passport and
// most Express / Nest strategies put the signed-in user's row on `req.user`, Koa on
// `ctx.state.user`, Express apps also on `res.locals.user`; a Nest parameter decorator
// (`@CurrentUser() user`) hands it to the handler. The row was read by another file, before the
// handler ran: a field written back from its value (`user.credits - cost`) is as stale as one
// read in the handler. The request's other properties are not rows: `body`, `query`, `params`,
// `headers` come from the client, `session` is the session store's object, `locals` a bag.

/** Properties of the request (or of Koa's `ctx.state`, Express's `res.locals`) that hold the loaded row of the signed-in user. */
export const REQUEST_ROW_PROPERTIES: ReadonlySet<string> = new Set(['user', 'currentUser', 'account', 'currentAccount']);

/** Parameter names of the request in a handler (`(req, res)`, Fastify's `(request, reply)`). */
export const REQUEST_PARAMETER = /^req(?:uest)?$/;
/** Parameter names of the response, whose `locals` an Express middleware fills (`res.locals.user`). */
export const RESPONSE_PARAMETER = /^res(?:ponse)?$/;
/** Parameter names of Koa's context, whose `state` an auth middleware fills (`ctx.state.user`). */
export const KOA_CONTEXT_PARAMETER = /^(?:ctx|context)$/;
/** The bag on the response (`res.locals`) and on Koa's context (`ctx.state`) a middleware leaves the row in. */
export const RESPONSE_BAG = 'locals';
export const KOA_STATE = 'state';

/** Nest parameter decorators that hand the request itself (`@Req() req`): its `user` is the row. */
export const REQUEST_PARAMETER_DECORATORS: ReadonlySet<string> = new Set(['Req', 'Request']);

/**
 * A Nest parameter decorator that hands the signed-in user's row (`@CurrentUser()`, `@AuthUser()`,
 * `@GetUser()`, `@ReqUser()`, `@User()`; also for an account). `@Session()` or `@Body()` hand no row.
 */
export const ROW_PARAMETER_DECORATOR = /^(?:Current|Auth|Authenticated|Get|Req|Request|LoggedIn|Signed(?:In)?)?(?:User|Account)$/;

/**
 * Raw-text signs of such a row, for the rule's text gate and for telling which handlers to walk:
 * `req.user`, `request.currentUser`, `ctx.state.user`, `res.locals.user`, `const { user } = req`,
 * a user-row decorator, Nest's `@Req()` (the request under any name).
 */
export const REQUEST_ROW_TEXT = new RegExp(
  [
    String.raw`\breq(?:uest)?\s*\??\.\s*(?:user|currentUser|account|currentAccount)\b`,
    String.raw`\b(?:ctx|context)\s*\??\.\s*state\b`,
    String.raw`\bres(?:ponse)?\s*\??\.\s*locals\b`,
    String.raw`\}\s*=\s*(?:req(?:uest)?|(?:ctx|context)\.state|res(?:ponse)?\.locals)\s*[;,\n]`,
    String.raw`@(?:Req(?:uest)?|(?:Current|Auth|Authenticated|Get|Req|Request|LoggedIn|Signed(?:In)?)?(?:User|Account))\s*\(`,
  ].join('|'),
);
