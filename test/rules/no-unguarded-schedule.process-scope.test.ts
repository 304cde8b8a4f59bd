// no-unguarded-schedule on schedules that stay with the process that sets them up:
// - a send on one of this process's own open connections (`for (const client of wss.clients)
//   client.send(…)`, `io.sockets.sockets.forEach((socket) => socket.emit(…))`): each replica
//   reaches only the peers connected to it. Twins: a shared write beside the broadcast, and a
//   broker client named `client` that is not one of the server's connections.
// - a schedule set up only in development (`if (process.env.NODE_ENV === 'development')`, a
//   `case 'development':` of a switch on the environment, `if (isProduction) return;` before it):
//   it never runs in a production deployment. Twins: set up in production, or reached from a
//   production case falling through.
// - a completion callback handed to the function that sets the timer, called once and then
//   dropped (`done(); done = undefined;`): the timer is not a job runner running work handed in.
//   Twin: the callback is called on every tick.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { lines, suggested } from './schedule-suggestion.js';

const settings = { 'replica-guard': { service: 'chat' } };
/** The purge timer, `depth` levels in. */
const purge = (depth: number) => {
  const pad = '  '.repeat(depth);
  return [
    `${pad}setInterval(async () => {`,
    `${pad}  await db.query('DELETE FROM upload_tokens WHERE expires_at < now()');`,
    `${pad}}, 60_000);`,
  ];
};
/** The purge timer set up between `before` and `after`. */
const purgeUnder = (before: string[], depth: number, after: string[]) => [
  "import { db } from './db';",
  ...before,
  ...purge(depth),
  ...after,
];
const inStartPurge = (parameter: string, test: string[], depth: number, after: string[]) =>
  purgeUnder([`export function startPurge(${parameter}) {`, ...test], depth, [...after, '}']);
const envSwitch = (cases: string[]) =>
  inStartPurge('config: { env: string }', ['  switch (config.env) {', ...cases.map((c) => `    case '${c}':`)], 3, [
    '      break;',
    '    default:',
    '      break;',
    '  }',
  ]);

const broadcastAndStore = [
  "import { WebSocketServer } from 'ws';",
  "import { pool } from './db';",
  'const wss = new WebSocketServer({ port: 8081 });',
  'setInterval(async () => {',
  '  const snapshot = { online: wss.clients.size, at: Date.now() };',
  '  for (const client of wss.clients) client.send(JSON.stringify(snapshot));',
  "  await pool.query('INSERT INTO presence_snapshots (online, taken_at) VALUES ($1, now())', [snapshot.online]);",
  '}, 15_000);',
];
const brokerClient = [
  'export class DigestService {',
  '  constructor(private readonly client: { send(pattern: string, data: unknown): Promise<void> }) {}',
  '  start() {',
  '    setInterval(async () => {',
  "      await this.client.send('digest.daily', { at: Date.now() });",
  '    }, 86_400_000);',
  '  }',
  '}',
];
const productionOnly = purgeUnder(["if (process.env.NODE_ENV === 'production') {"], 1, ['}']);
const fallsThroughFromProduction = envSwitch(['production', 'development']);
const leavesOutsideProduction = inStartPurge('isProduction: boolean', ['  if (!isProduction) return;'], 1, []);
const callbackEveryTick = [
  'export function startReconcile(api: { reconcile(): Promise<number> }, onChange: (n: number) => void) {',
  '  setInterval(async () => {',
  '    const changed = await api.reconcile();',
  '    if (changed) onChange(changed);',
  '  }, 10_000);',
  '}',
];

ruleTester.run('no-unguarded-schedule (work that stays with this process)', noUnguardedSchedule, {
  valid: [
    // ws: a presence snapshot sent to each client connected to this process.
    {
      settings,
      code: lines(
        "import { WebSocketServer } from 'ws';",
        'const wss = new WebSocketServer({ port: 8081 });',
        'setInterval(() => {',
        '  const snapshot = { online: wss.clients.size, at: Date.now() };',
        '  for (const client of wss.clients) client.send(JSON.stringify(snapshot));',
        '}, 15_000);',
      ),
    },
    // ws: the canonical broadcast, through `forEach`.
    {
      settings,
      code: lines(
        "import { WebSocket, WebSocketServer } from 'ws';",
        'export function startClock(wss: WebSocketServer) {',
        '  setInterval(() => {',
        '    const payload = JSON.stringify({ now: Date.now() });',
        '    wss.clients.forEach((client) => {',
        '      if (client.readyState === WebSocket.OPEN) client.send(payload);',
        '    });',
        '  }, 1_000);',
        '}',
      ),
    },
    // socket.io 0.9: `io.sockets.clients()` are this server's connected clients.
    {
      settings,
      code: lines(
        'export function startClock(io: any) {',
        '  setInterval(() => {',
        '    for (const client of io.sockets.clients()) client.send(JSON.stringify({ now: Date.now() }));',
        '  }, 1_000);',
        '}',
      ),
    },
    // A few clients a second asked to reconnect, and a completion callback called once, then dropped.
    {
      settings,
      code: lines(
        'export default {',
        '  asked: new Set<string>(),',
        '  timer: undefined as ReturnType<typeof setInterval> | undefined,',
        '  start(io: any, perSecond: number, done?: () => void) {',
        '    clearInterval(this.timer);',
        '    this.timer = setInterval(() => {',
        '      const finished = this.askSome(io, perSecond);',
        '      if (finished && done) {',
        '        done();',
        '        done = undefined;',
        '      }',
        '    }, 1_000);',
        '  },',
        '  askSome(io: any, perSecond: number) {',
        '    let asked = 0;',
        '    for (const socket of io.sockets.sockets.values()) {',
        '      if (this.asked.has(socket.id) || asked >= perSecond) continue;',
        '      this.asked.add(socket.id);',
        "      socket.emit('please-reconnect');",
        '      asked++;',
        '    }',
        '    return asked === 0;',
        '  },',
        '};',
      ),
    },
    // Set up only in development.
    { settings, code: lines(...purgeUnder(["if (process.env.NODE_ENV === 'development') {"], 1, ['}'])) },
    { settings, code: lines(...envSwitch(['test', 'development'])) },
    { settings, code: lines(...inStartPurge('isProduction: boolean', ['  if (isProduction) return;'], 1, [])) },
    { settings, code: lines(...purgeUnder(["if (process.env.NODE_ENV !== 'production') {"], 1, ['}'])) },
    // The reconcile callback called once, then dropped: a completion notice, not a job handed in.
    {
      settings,
      code: lines(
        'export function startReconcile(api: { reconcile(): Promise<number> }, onChange?: (n: number) => void) {',
        '  setInterval(async () => {',
        '    const changed = await api.reconcile();',
        '    if (changed && onChange) {',
        '      onChange(changed);',
        '      onChange = undefined;',
        '    }',
        '  }, 10_000);',
        '}',
      ),
    },
  ],
  invalid: [
    {
      settings,
      code: lines(...broadcastAndStore),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 4,
          column: 13,
          suggestions: suggested(broadcastAndStore, 1, 4, "  if (!(await claimPeriod('chat:file-4', 15_000))) return;"),
        },
      ],
    },
    {
      settings,
      code: lines(...brokerClient),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 4,
          column: 17,
          suggestions: suggested(brokerClient, -1, 4, "      if (!(await claimPeriod('chat:file-4', 86_400_000))) return;"),
        },
      ],
    },
    {
      settings,
      code: lines(...productionOnly),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 3,
          column: 15,
          suggestions: suggested(productionOnly, 0, 3, "    if (!(await claimPeriod('chat:file-3', 60_000))) return;"),
        },
      ],
    },
    {
      settings,
      code: lines(...fallsThroughFromProduction),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 6,
          column: 19,
          suggestions: suggested(fallsThroughFromProduction, 0, 6, "        if (!(await claimPeriod('chat:file-6', 60_000))) return;"),
        },
      ],
    },
    {
      settings,
      code: lines(...leavesOutsideProduction),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 4,
          column: 15,
          suggestions: suggested(leavesOutsideProduction, 0, 4, "    if (!(await claimPeriod('chat:file-4', 60_000))) return;"),
        },
      ],
    },
    {
      settings,
      code: lines(...callbackEveryTick),
      errors: [
        {
          messageId: 'unguardedSchedule',
          line: 2,
          column: 15,
          // Set up once per `api` handed in: no one fixed key fits it (no suggestion).
          suggestions: [],
        },
      ],
    },
  ],
});
