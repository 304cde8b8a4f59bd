// A script that builds the application without serving it: `const app = await NestFactory.create(AppModule)`
// (or `createApplicationContext`), one step with it (`app.get(DataSource).runMigrations()`), then
// `await app.close()`, and no `listen`. The application is built for its providers, the run ends
// when the step does: a command someone runs (`npm run migration:run`), not a replica's start.
import type { TSESLint } from '@typescript-eslint/utils';
import { SERVER_START } from '../../src/knowledge/file-conventions.js';
import { APPLICATION_BUILDS } from '../../src/knowledge/migration-runs.js';
import { isOneShot } from './one-shot-run.js';

const EVERY_BUILD = new RegExp(APPLICATION_BUILDS.source, 'g');

/** Whether the file builds the application only to run one step and close it (see the file's head). */
export function buildsAppToRunOnce(sourceCode: Readonly<TSESLint.SourceCode>): boolean {
  const text = sourceCode.text;
  if (!APPLICATION_BUILDS.test(text)) return false;
  // Another way of starting a server (`app.listen(…)`, `startServer()`) in the file makes it a server.
  if (SERVER_START.test(text.replace(EVERY_BUILD, ''))) return false;
  // Its run may sit behind a main-module guard (`if (startedDirectly()) run().then(() => process.exit(0))`).
  return isOneShot(sourceCode, null, true);
}
