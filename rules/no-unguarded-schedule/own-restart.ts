// A job whose only work is a command line restarting this host's own processes (`execSync('pm2 reload
// api')`, `exec('systemctl restart worker')`), beside log lines: every host restarts what its own process
// manager runs — a nightly restart is each replica's upkeep, not shared work done N times.
import type { TSESTree } from '@typescript-eslint/utils';
import { memberPropertyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { isLogLine } from '../../analysis/scheduled-work/lease-gate.js';
import type { FunctionLike } from '../../analysis/scheduled-work/work-function.js';
import { sqlText } from '../../analysis/scheduled-work/work-intent.js';
import { OWN_RESTART_COMMAND } from '../../src/knowledge/host-local.js';
import { PROCESS_SPAWNERS } from '../../src/knowledge/migrators.js';

const SPAWNER_NAMES: ReadonlySet<string> = new Set(PROCESS_SPAWNERS.filter((s) => !s.tagged).flatMap((s) => s.names));

/** `execSync('pm2 reload api', …)`, `await exec(\`pm2 restart ${name}\`)`: a spawner handed a restart of this host's processes. */
function restartsOwnProcess(expression: TSESTree.Expression): boolean {
  const call = unwrapExpression(expression, { await: true });
  if (call.type !== 'CallExpression') return false;
  const callee = unwrapExpression(call.callee);
  const name = callee.type === 'Identifier' ? callee.name : memberPropertyName(callee);
  if (name === undefined || !SPAWNER_NAMES.has(name)) return false;
  const text = call.arguments[0] && sqlText(call.arguments[0]);
  return text !== undefined && OWN_RESTART_COMMAND.test(`${text} `);
}

/** The statements run, through `try` blocks (a `catch` that only logs adds nothing). */
function runStatements(statements: readonly TSESTree.Statement[]): TSESTree.Statement[] | undefined {
  const out: TSESTree.Statement[] = [];
  for (const statement of statements) {
    if (statement.type !== 'TryStatement') out.push(statement);
    else if (statement.handler && !statement.handler.body.body.every(isLogLine)) return undefined;
    else out.push(...(runStatements(statement.block.body) ?? [statement]));
  }
  return out;
}

/** The work only restarts this host's processes, and logs. */
export function restartsOwnProcesses(fn: FunctionLike): boolean {
  if (fn.body.type !== 'BlockStatement') return restartsOwnProcess(fn.body);
  const statements = runStatements(fn.body.body);
  if (statements === undefined) return false;
  const work = statements.filter((s) => !isLogLine(s));
  return work.length > 0 && work.every((s) => s.type === 'ExpressionStatement' && restartsOwnProcess(s.expression));
}
