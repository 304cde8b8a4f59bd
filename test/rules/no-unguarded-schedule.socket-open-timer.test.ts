// no-unguarded-schedule on a timer armed when a socket opens and cleared when it closes, its handle
// kept in a field (`this.ws.onopen = () => { this.heartbeat = setInterval(…) }`, `clearInterval(this.heartbeat)`
// in `this.ws.onclose`): a keepalive of that one connection, not a period of the replica. Reported
// when nothing clears it on the socket's end, or when the connection is a database client's
// (`db.on('connect', …)`: once per process).
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { guardedReport } from './schedule-report.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'index' } };

/** A client whose `owner` arms `this.heartbeat` on `open` and clears it with `onClose` on `close`. */
const client = (owner: string, onClose: string) =>
  lines(
    "import WebSocket from 'ws';",
    "import { db } from './db';",
    'export class ApiClient {',
    '  private ws!: WebSocket;',
    '  private heartbeat?: NodeJS.Timeout;',
    '  connect(url: string) {',
    '    this.ws = new WebSocket(url);',
    `    ${owner}.on('close', () => {`,
    `      ${onClose}`,
    '    });',
    `    ${owner}.on('open', () => {`,
    '      this.heartbeat = setInterval(async () => {',
    "        await db.query('UPDATE peers SET seen_at = now() WHERE id = 1');",
    '      }, 30_000);',
    '    });',
    '  }',
    '}',
  );

const reported = (owner: string, onClose: string) =>
  guardedReport(settings, client(owner, onClose), {
    line: 12,
    column: 36,
    guard: "        if (!(await claimPeriod('index:file-12', 30_000))) return;",
    after: 12,
    importAfter: 2,
  });

ruleTester.run('no-unguarded-schedule (socket-open timer)', noUnguardedSchedule, {
  valid: [{ settings, code: client('this.ws', 'clearInterval(this.heartbeat);') }],
  invalid: [
    // Nothing clears it when the socket ends.
    reported('this.ws', "console.log('closed');"),
    // A database client's connection opens once per process.
    reported('db', 'clearInterval(this.heartbeat);'),
  ],
});
