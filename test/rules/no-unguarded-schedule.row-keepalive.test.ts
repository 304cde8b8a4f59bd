// no-unguarded-schedule on a bare timer keeping a worker's hold on one row alive: its only shared
// write is `UPDATE … SET <hold column> = $1 WHERE <key> = $2` (`claimed_until`, `lease_expires_at`)
// with values it is handed — each worker touches the row it holds, quiet. The twins: a sweep over
// many rows (a time comparison in the filter), a data column set beside the hold, or another write
// in the same work, or a row named by a parameter instead of the instance's own value, are reported.
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { ruleTester } from './rule-tester.js';

const lines = (...l: string[]) => l.join('\n');

/** A render task that, while it runs, runs `sql` every 30 s with `[new Date(), <ref>]`, then `after`. */
const holder = (sql: string, ...after: string[]) => heldBy('this.task.ref', sql, ...after);
const heldBy = (ref: string, sql: string, ...after: string[]) =>
  lines(
    'export class RenderHold {',
    '  timer;',
    '  constructor(private db, private task) {}',
    '  begin(task = this.task) {',
    '    this.timer = setInterval(async () => {',
    `      await this.db.withConnection((conn) => conn.query(\`${sql}\`, [new Date(), ${ref}]));`,
    ...after,
    '    }, 30_000);',
    '  }',
    '  finish() {',
    '    clearInterval(this.timer);',
    '  }',
    '}',
  );

const settings = { 'replica-guard': { service: 'render' } };

/** Reported at the timer's work (line 5), the suggestion putting the guard first in it and importing it. */
const reported = (code: string) => {
  const out = code.split('\n');
  out.splice(5, 0, "      if (!(await claimPeriod('render:file-5', 30_000))) return;");
  out.unshift("import { claimPeriod } from 'replica-guard';");
  const suggestions = [{ messageId: 'addClaimPeriod' as const, output: lines(...out) }];
  return { settings, code, errors: [{ messageId: 'unguardedSchedule' as const, line: 5, column: 30, suggestions }] };
};

ruleTester.run('no-unguarded-schedule: a worker keeping its hold on one row alive', noUnguardedSchedule, {
  valid: [
    { settings, code: holder('UPDATE render_tasks SET lease_expires_at = $1 WHERE id = $2') },
    { settings, code: holder('UPDATE render_tasks SET heartbeat_at = $1, locked_until = $1 WHERE task_id = $2 AND locked_by = $3') },
    { settings, code: holder('update render_tasks set locked_at = ? where uuid = ?', "      console.info('still rendering');") },
  ],
  invalid: [
    reported(holder('UPDATE render_tasks SET locked_at = NULL WHERE locked_at < $1 AND id = $2')),
    // A row named by a parameter, not by what the instance holds: the claim before it decides.
    reported(heldBy('task.ref', 'UPDATE render_tasks SET lease_expires_at = $1 WHERE id = $2')),
    reported(holder('UPDATE render_tasks SET locked_at = $1, progress = progress + 1 WHERE id = $2')),
    reported(
      holder(
        'UPDATE render_tasks SET locked_at = $1 WHERE id = $2',
        "      await this.db.query('DELETE FROM render_previews WHERE task_id = $1', [this.task.ref]);",
      ),
    ),
  ],
});
