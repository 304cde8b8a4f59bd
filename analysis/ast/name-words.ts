// The words of an identifier (`acquireLock` → acquire, lock; `SEND_MAIL` → send, mail): what every
// rule reads a name by, cached because a walk asks for the same callee names many times.

/** Words of the names met so far: a work's walk asks for the words of each callee name several times. */
const wordsByName = new Map<string, readonly string[]>();
const MAX_NAMES = 20_000;
const MAX_NAME_LENGTH = 80;

/** `acquireLock` → `['acquire', 'lock']`, `SEND_MAIL` → `['send', 'mail']`. */
export function nameWords(name: string): readonly string[] {
  const known = wordsByName.get(name);
  if (known) return known;
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
  if (name.length > MAX_NAME_LENGTH) return words;
  if (wordsByName.size >= MAX_NAMES) wordsByName.clear();
  wordsByName.set(name, words);
  return words;
}
