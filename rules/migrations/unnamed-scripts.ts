// Migrate scripts under other names: a one-shot script whose run may migrate (exempt-file.ts asks it
// among the ways a file is a migrate entrypoint).
import type { TSESTree } from '@typescript-eslint/utils';
import type { DetectContext } from '../utils/create-rule.js';
import { isOneOffScriptName, isTestScriptName } from '../../src/knowledge/file-conventions.js';
import { isRunOnlyByOneOffScripts, isRunOnlyByTestScripts } from './package-scripts.js';
import { isOneShot } from './one-shot-run.js';
import { isBareSchemaScript } from './bare-scripts.js';
import { codeTextOf } from '../../analysis/source/code-text.js';

/** A call named for seeding (`seed()`, `seedDemoData()`). */
const CALLS_SEED = /(?:\b|[a-z_])(?:seed|Seed|SEED)\w*\s*\(/;

/**
 * A one-shot script under another name whose run may migrate (`scripts/apply.ts`, a root `sync.js`, a container's
 * set-up step): it ends the process itself and starts no server, or is nothing but its schema write (bare-scripts.ts),
 * and neither its name nor the package.json scripts that run it call it a chore or a test's (`seed.ts`, `"db:reset"`).
 * Judged as a migrate entrypoint found by its name: checked only when it runs migrations. Every other file costs two
 * substring tests of its code (comments left out, `codeTextOf`, shared by the rules) for a migrator's run
 * (`runMigrations`, `knex.migrate.latest()`, `sequelize.sync(…)`); its name's words are read after them.
 */
export function isUnnamedMigrationScript(context: DetectContext, nameWordsOf: () => readonly string[]): boolean {
  const text = context.sourceCode.text;
  if (!text.includes('igrat') && !text.includes('.sync(')) return false;
  // The words in the code, not only in its comments (a file that only mentions a migration runs none).
  const code = codeTextOf(context.sourceCode);
  if (!code.includes('igrat') && !code.includes('.sync(')) return false;
  const filename = context.filename;
  // The file name's words only now: most files are turned away by the code's words.
  if (nameWordsOf().some((word) => isOneOffScriptName(word) || isTestScriptName(word))) return false;
  // A set-up script that also seeds (`await runSeed()`) is a chore's script beside its migrations.
  if (CALLS_SEED.test(text)) return false;
  const program = context.sourceCode.ast as TSESTree.Program;
  return (
    (isOneShot(context.sourceCode) || isBareSchemaScript(program)) &&
    !isRunOnlyByOneOffScripts(filename) &&
    !isRunOnlyByTestScripts(filename)
  );
}
