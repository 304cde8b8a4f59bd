// A socket's events that say it has just opened (`ws.onopen`, `socket.on('connect', …)`): a timer armed
// there and cleared on the same socket's end event (TIMER_LIFETIME.endEvents) lives as long as that
// one connection (a keepalive ping). Only a receiver named for a socket counts: a database client's
// `connect` (`redis.on('connect', …)`, `mongoose.connection.on('open', …)`) opens once per process,
// and a timer armed there is the process's.
export const CONNECTION_OPEN_EVENTS: readonly string[] = ['open', 'connect', 'connected'];
/** The last word of a socket's name (`ws`, `this.socket`, `clientWebSocket`). */
export const SOCKET_NAME_WORDS: readonly string[] = ['ws', 'wss', 'socket', 'websocket', 'sock'];
/**
 * The event a server hands each client's new connection with (`io.on('connection', (socket) => …)`, ws's
 * `wss.on('connection', (ws) => …)`): the client is connected to this one replica, and what it sends over
 * that socket arrives here only.
 */
export const SERVER_CONNECTION_EVENTS: readonly string[] = ['connection'];
