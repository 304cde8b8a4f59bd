// Calls that redraw a terminal: a timer whose work makes one refreshes a screen someone watches (a
// progress monitor, a live dashboard run from a shell), not a replicated service's job.

/** Callee paths, as written, that clear or reposition the terminal. */
export const TERMINAL_REDRAW_CALLS: readonly string[] = [
  'console.clear',
  'readline.cursorTo',
  'readline.clearScreenDown',
  'process.stdout.cursorTo',
  'process.stdout.clearScreenDown',
];
