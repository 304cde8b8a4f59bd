// Which of `no-in-app-migrations`' findings run on a replica's start: the report the rule makes
// them through, each filter asked only of a finding about to be made.
import type { DetectContext } from '../utils/create-rule.js';
import { outsideOperatorCommands } from './exempt-file.js';
import { outsideToolWrappers } from './called-only-by-tools.js';
import { outsideMigrateCommandEntries } from './outside-command-entries.js';
import { outsideMigratorVerbDefinitions } from './migrator-api-methods.js';
import { outsideRequestHandlers } from './outside-request-handlers.js';
import { outsideTaskHandlers } from './task-handlers.js';
import { outsideTwoWayMigrationApis } from './two-way-apis.js';
import { outsideCommandLineBranches } from './argv-commands.js';
import { outsideTestOnlyCode } from './test-only-guards.js';
import { outsideExitingRuns } from './exiting-runs.js';

/**
 * `report`, dropping what runs on no replica's start. An operator's command (an install wizard, an
 * admin CLI's `migrate`) runs when someone types it: asked before the file's first finding, so most
 * files never are. A wrapper that only tools and tests call (an admin CLI's revert, a test
 * harness's reset) is on no replica's start path: asked of a call about to be reported, once per
 * wrapper. A run inside a request handler runs once, for the request that asked for it (so does one in a
 * function-as-a-service handler that never reads its event: the task it is invoked for); one inside
 * a `migrate` command's entry, when that command is typed; a migrator class's own `up()`, where it is called.
 * A run in the branch of a command-line sub-command (`process.argv[2] === 'apply'`) runs when that word is typed; one
 * in a function that ends the process once it succeeds (`…; process.exit(0)`), when its command is started.
 * A write after a guard that stops unless under tests (`if (!isTest()) throw …`) runs in test runs only.
 * The wrappers of a two-way migration API (`migrateLatest()` beside `migrateDown()`) are judged
 * once every finding of the file is known: `flush` at the end of the file.
 */
export function onStartPaths<Report extends (descriptor: never) => void>(
  context: DetectContext,
  report: Report,
): { report: Report; flush: () => void } {
  const twoWay = outsideTwoWayMigrationApis(context, report);
  const oneOffs = outsideMigratorVerbDefinitions(
    context,
    outsideMigrateCommandEntries(outsideToolWrappers(context, outsideOperatorCommands(context, twoWay.report)), context.sourceCode),
  );
  const commands = outsideCommandLineBranches(context.sourceCode, outsideExitingRuns(context.sourceCode.text, oneOffs));
  return { report: outsideTestOnlyCode(outsideRequestHandlers(context, outsideTaskHandlers(context, commands))), flush: twoWay.flush };
}
