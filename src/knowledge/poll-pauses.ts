// The pause of an endless poll loop when it goes by a name of its own (src/knowledge/schedulers.ts
// POLL_LOOP_DELAY_NAMES lists the usual ones). Plain data read by analysis/scheduled-work/poll-loops.ts
// and the rule's text pre-check.

/**
 * A pause of another name (`await snooze(POLL_MS)`, `await waitSeconds(5)`, `await this.sleepFor(60 * 1000)`):
 * a word of `POLL_LOOP_PAUSE_WORDS` in the callee's name and a duration as its argument — a number,
 * a name with a word of `POLL_LOOP_DURATION_WORDS` (`pollIntervalMs`, `config.delaySeconds`), or a
 * product of them. A name that also says what it waits for (`waitForMessage(5_000)`, `waitNextJob`)
 * is a blocking read, a consumer's, not a pause.
 */
export const POLL_LOOP_PAUSE_WORDS: readonly string[] = ['sleep', 'delay', 'wait', 'pause', 'snooze', 'timeout'];
export const POLL_LOOP_DURATION_WORDS: readonly string[] = [
  'ms',
  'millis',
  'milliseconds',
  'sec',
  'secs',
  'seconds',
  'minutes',
  'interval',
  'delay',
  'period',
  'timeout',
  'backoff',
  'duration',
];
export const POLL_LOOP_WAITED_FOR_WORDS: readonly string[] = [
  'message',
  'messages',
  'msg',
  'job',
  'jobs',
  'event',
  'events',
  'task',
  'tasks',
  'item',
  'next',
  'receive',
  'read',
  'pop',
  'take',
  'fetch',
  'poll',
  'dequeue',
  'consume',
  'response',
  'reply',
  'result',
  'ready',
  'signal',
];
