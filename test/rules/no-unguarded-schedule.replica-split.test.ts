// no-unguarded-schedule on work split by the replica's ordinal across the deployment: a schedule
// started only where `config.instanceIndex === 0`, where a StatefulSet's host name ends in `-0`,
// or work that leaves unless `INSTANCE_INDEX` is 0, runs on one replica — quiet. Its twins are
// reported: the test picks every replica but the first; pm2's `NODE_APP_INSTANCE`, `cluster.isPrimary`
// and `isMainThread` count processes on one host (every host has a 0, a primary, a main thread).
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';
import { guardedReport } from './schedule-report.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'mail' } };

/** `startJobs(config)` schedules the imported `sendDigests` behind `gate` (a statement around `SCHEDULE`). */
const SCHEDULE = "cron.schedule('0 6 * * *', sendDigests)";
const starter = (...body: string[]) =>
  lines(
    "import cron from 'node-cron';",
    "import cluster from 'node:cluster';",
    "import { isMainThread } from 'node:worker_threads';",
    "import { sendDigests } from './digests';",
    'export function startJobs(config: { instanceIndex: number }) {',
    ...body.map((statement) => `  ${statement}`),
    '}',
  );
/** Reported at `sendDigests` on `line` (the work is in another module: no suggestion). */
const starterReported = (messageId: 'unguardedSchedule' | 'deploymentFlagGate', line: number, column: number, ...body: string[]) => ({
  settings,
  code: starter(...body),
  errors: [{ messageId, line, column, suggestions: [] }],
});

/** A purge whose work begins with `check`. */
const purge = (check: string) =>
  lines(
    "import cron from 'node-cron';",
    "import { db } from './db';",
    "cron.schedule('0 3 * * *', purgeSessions);",
    'async function purgeSessions() {',
    `  ${check}`,
    "  await db.query('DELETE FROM sessions WHERE expires_at < now()');",
    '}',
  );
const purgeReported = (messageId: 'unguardedSchedule' | 'deploymentFlagGate', check: string) =>
  guardedReport(settings, purge(check), {
    messageId,
    line: 3,
    column: 28,
    guard: "  if (!(await claimPeriod('mail:purge-sessions', { cron: '0 3 * * *' }))) return;",
    after: 4,
    importAfter: 2,
  });

ruleTester.run('no-unguarded-schedule: work split by replica ordinal', noUnguardedSchedule, {
  valid: [
    // started only on the replica whose configured index is 0
    { settings, code: starter(`if (config.instanceIndex === 0) ${SCHEDULE};`) },
    // a StatefulSet's first pod (`app-0`)
    { settings, code: starter("if (process.env.HOSTNAME?.endsWith('-0')) {", `  ${SCHEDULE};`, '}') },
    // every other replica leaves before the schedule
    { settings, code: starter("if (process.env.REPLICA_ORDINAL !== '0') return;", `${SCHEDULE};`) },
    // the work leaves unless this is replica 0
    { settings, code: purge('if (Number(process.env.INSTANCE_INDEX) !== 0) return;') },
  ],
  invalid: [
    // every replica but the first
    starterReported('unguardedSchedule', 6, 62, `if (config.instanceIndex !== 0) ${SCHEDULE};`),
    starterReported('unguardedSchedule', 7, 32, "if (!process.env.HOSTNAME?.endsWith('-0')) {", `  ${SCHEDULE};`, '}'),
    // the first leaves, every other replica runs it
    starterReported('unguardedSchedule', 7, 30, "if (process.env.REPLICA_ORDINAL === '0') return;", `${SCHEDULE};`),
    // per host: the cluster's primary process, the main thread
    starterReported('deploymentFlagGate', 6, 53, `if (cluster.isPrimary) ${SCHEDULE};`),
    starterReported('unguardedSchedule', 6, 48, `if (isMainThread) ${SCHEDULE};`),
    // per host: pm2's instance number
    purgeReported('deploymentFlagGate', "if (process.env.NODE_APP_INSTANCE !== '0') return;"),
    // a check of something else
    purgeReported('unguardedSchedule', 'if (process.env.INSTANCE_INDEX === undefined) return;'),
  ],
});
