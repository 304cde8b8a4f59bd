// A worker module that also starts itself when run directly (`if (require.main === module)
// SettlementWorker.run()`): the block is a convenience for a manual run; the module exports its
// work, and the scheduler or the worker process that imports it runs it on every replica. Such a
// file — named for a process that keeps running (`src/worker/…`, `billing-cron.ts`, `jobs/…`) —
// is no one-off command, and its findings stay reported.
import type { TSESTree } from '@typescript-eslint/utils';
import { namesLongRunningProcess } from '../../src/knowledge/file-conventions.js';
import { projectPath } from '../../analysis/source/project-path.js';
import { exportingStatements } from '../../analysis/modules/exporting-statements.js';
import { runsOnlyWhenStartedDirectly } from '../migrations/started-directly.js';
import { outsideOneOffCommands } from '../migrations/exempt-file.js';

type Context = Parameters<typeof outsideOneOffCommands>[0];

/** Whether the linted module is a worker's that exports its work and starts it too when run directly. */
function isExportedWorker(context: Context): boolean {
  const program = context.sourceCode.ast as TSESTree.Program;
  if (!namesLongRunningProcess(projectPath(context.filename, context.cwd) ?? '')) return false;
  if (!program.body.some((statement) => runsOnlyWhenStartedDirectly(statement, context.sourceCode))) return false;
  return exportingStatements(program).byName.size > 0;
}

/** `report`, dropping the findings of a one-off command (`outsideOneOffCommands`) unless the file is an exported worker's. Asked once, at the first finding. */
export function outsideOneOffsButWorkers<Report extends (descriptor: never) => void>(context: Context, report: Report): Report {
  const oneOff = outsideOneOffCommands(context, report);
  let worker: boolean | undefined;
  return ((descriptor: never) => ((worker ??= isExportedWorker(context)) ? report(descriptor) : oneOff(descriptor))) as Report;
}
