// no-unguarded-schedule on a schedule set up in the handler of a message a client sent over its own
// connection to this server (`io.on('connection', (socket) => socket.on('…', () => cron.schedule(…)))`):
// the client is connected to one replica, which alone received the message — quiet. A socket this
// process opens itself (every replica connects and receives each broadcast), a parameter not named
// for a socket, a listener of another event than the connection's: reported.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { guardedReport } from './schedule-report.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'outreach' } };

/** A socket.io server (`opened` is the connection's event, `socket` its handler's parameter) whose client asks for a reminder run. */
const server = (opened = 'connection', socket = 'socket') =>
  lines(
    "import cron from 'node-cron';",
    "import { Server } from 'socket.io';",
    "import { Reminder } from './models';",
    'export function attach(httpServer) {',
    '  const io = new Server(httpServer);',
    `  io.on('${opened}', (${socket}) => {`,
    `    ${socket}.on('reminders:plan', (plan) => {`,
    "      const task = cron.schedule('*/30 * * * * *', async () => {",
    '        const due = await Reminder.find({ planId: plan.id, sent: false });',
    '        for (const reminder of due) await Reminder.updateOne({ _id: reminder._id }, { sent: true });',
    '        if (due.length === 0) task.stop();',
    '      });',
    '    });',
    '  });',
    '}',
  );

/** The report at the work handed to `cron.schedule`, its guard inserted as the work's first line. */
const reported = (code: string, line: number, column: number, job: string, indent: string) =>
  guardedReport(settings, code, {
    line,
    column,
    guard: `${indent}if (!(await claimPeriod('outreach:${job}', { cron: '*/30 * * * * *' }))) return;`,
    after: line,
    importAfter: 3,
  });

ruleTester.run('no-unguarded-schedule (a schedule per client message)', noUnguardedSchedule, {
  valid: [
    // socket.io: the message came to this replica only
    { settings, code: server() },
    // ws: a server's connection parameter named `ws`, its `message` listener
    {
      settings,
      code: lines(
        "import { WebSocketServer } from 'ws';",
        "import { pool } from './db';",
        'const wss = new WebSocketServer({ port: 8080 });',
        "wss.on('connection', (ws, req) => {",
        "  ws.on('message', (raw) => {",
        '    const { roomId } = JSON.parse(String(raw));',
        '    const timer = setInterval(async () => {',
        "      await pool.query('UPDATE rooms SET last_seen = now() WHERE id = $1', [roomId]);",
        '    }, 10_000);',
        '    ws.send(JSON.stringify({ watching: roomId, timer: Boolean(timer) }));',
        '  });',
        '});',
      ),
    },
  ],
  invalid: [
    // not a connection's event: the process's own socket, opened once per replica
    reported(server('open'), 8, 52, 'task', '        '),
    // a parameter not named for a socket (a pool's connection)
    reported(server('connection', 'conn'), 8, 52, 'task', '        '),
    // a socket this process opens to a hub: every replica connects and gets the broadcast
    reported(
      lines(
        "import cron from 'node-cron';",
        "import { io } from 'socket.io-client';",
        "import { Reminder } from './models';",
        "const socket = io('http://hub.internal:4000');",
        "socket.on('reminders:plan', (plan) => {",
        "  cron.schedule('*/30 * * * * *', async () => {",
        '    await Reminder.updateMany({ planId: plan.id, sent: false }, { sent: true });',
        '  });',
        '});',
      ),
      6,
      35,
      'file-6',
      '    ',
    ),
  ],
});
