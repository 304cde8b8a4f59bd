// A function of the file whose every statement is a log line (`const logTick = (job) => { logger.info({ job }, 'tick'); }`):
// calling it writes a line to this process's log, whatever its name says (`writeTickHeartbeat` is no heartbeat
// sent anywhere). Read where a name would otherwise make the work "this instance only".
import { isLogLine } from './lease-gate.js';
import type { FunctionLike } from './work-function.js';

/** Whether `fn` is a block of log lines and nothing else. */
export function onlyLogs(fn: FunctionLike | undefined): boolean {
  return fn?.body.type === 'BlockStatement' && fn.body.body.length > 0 && fn.body.body.every(isLogLine);
}
