// SDK clients whose own methods are plain timers. discord.js before v13 gave its `Client` (and the
// clients built on it: discord.js-commando's `CommandoClient`, discord-akairo's `AkairoClient`)
// `setInterval(fn, ms)` and `setTimeout(fn, ms)`, the global timers kept on the client so that
// `client.destroy()` clears them. A bot's `client.setInterval(…)` that posts to a channel or
// writes rows runs once per replica, like a global `setInterval`.
import type { SchedulerEntry } from './schedulers.js';

export interface ClientTimerLibrary {
  /** Modules the client class is imported from. */
  modules: readonly string[];
  /** Its client classes (`new Client(…)`, `client: Client`). */
  classes: readonly string[];
}

export const CLIENT_TIMER_LIBRARIES: readonly ClientTimerLibrary[] = [
  { modules: ['discord.js'], classes: ['Client'] },
  { modules: ['discord.js-commando'], classes: ['CommandoClient', 'Client'] },
  { modules: ['discord-akairo'], classes: ['AkairoClient'] },
];

/**
 * Names a bot gives its client (`client`, `bot`, `this.client`): in a file that imports one of the
 * libraries, a receiver by such a name is its client even when nothing annotates it
 * (`module.exports = (client) => { client.setInterval(…) }`).
 */
export const CLIENT_RECEIVER_NAMES: readonly string[] = ['client', 'bot'];

/**
 * discord.js v12's managers on its client, each keeping a `cache` collection (`client.channels.cache.get(id)`): a bot's
 * module handed the client by its loader (`exports.run = async (client) => { … }`) imports nothing from the library, but
 * a receiver read so is the library's client. Only by a name of CLIENT_RECEIVER_NAMES (`client`, `this.client`, `bot`).
 */
export const CLIENT_CACHE_MANAGERS: readonly string[] = ['channels', 'guilds', 'users', 'emojis'];

/** The text a read of a manager's cache writes (`client.channels.cache`, `this.bot.guilds\n  .cache`). */
export const CLIENT_CACHE_READ = new RegExp(
  String.raw`\b(?:${CLIENT_RECEIVER_NAMES.join('|')})\s*\.\s*(?:${CLIENT_CACHE_MANAGERS.join('|')})\s*\.\s*cache\b`,
);

const clientTimer = (method: 'setInterval' | 'setTimeout'): SchedulerEntry => ({
  id: `client.${method}`,
  modules: CLIENT_TIMER_LIBRARIES.flatMap((library) => library.modules),
  path: ['Client', method],
  kind: 'call',
  work: [{ kind: 'argument', argument: 0 }],
  schedule: [{ kind: 'interval', argument: 1 }],
  bareTimer: true,
  ...(method === 'setTimeout' ? { selfRescheduling: true } : {}),
});

/** The client's timers by method: `setInterval` repeats; `setTimeout` only as a loop that arms itself again. */
export const CLIENT_TIMERS: Readonly<Record<string, SchedulerEntry>> = {
  setInterval: clientTimer('setInterval'),
  setTimeout: clientTimer('setTimeout'),
};
