// A script named for migrations that builds the application without serving it and runs one step
// with it, leaving the end to the runtime: `async function main() { const app = await
// NestFactory.create(AppModule); await app.get(LedgerMigrator).applyPending(); } void main();`.
// No `listen`, no other server start: the application is built for its providers, as in a script
// that closes it (standalone-apps.ts), and the file is the service's migrate script under another
// name. Asked only of a file whose base name says `migration` (exempt-file.ts).
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { SERVER_START } from '../../src/knowledge/file-conventions.js';
import { APPLICATION_BUILDS } from '../../src/knowledge/migration-runs.js';
import { startedBody, startedCall, topLevelFunctionBodies } from './one-shot-run.js';

const EVERY_BUILD = new RegExp(APPLICATION_BUILDS.source, 'g');

/** Whether a top-level statement starts a function of the file that builds the application, in a file that serves nothing. */
export function buildsAppWithoutServing(sourceCode: Readonly<TSESLint.SourceCode>): boolean {
  const text = sourceCode.text;
  if (!APPLICATION_BUILDS.test(text) || SERVER_START.test(text.replace(EVERY_BUILD, ''))) return false;
  const program = sourceCode.ast as TSESTree.Program;
  let bodies: Map<string, TSESTree.Node> | undefined;
  const bodiesOf = (): Map<string, TSESTree.Node> => (bodies ??= topLevelFunctionBodies(program));
  return program.body.some((statement) => {
    const call = statement.type === 'ExpressionStatement' ? startedCall(statement.expression) : undefined;
    const body = call && startedBody(call, bodiesOf);
    return body !== undefined && APPLICATION_BUILDS.test(sourceCode.getText(body));
  });
}
