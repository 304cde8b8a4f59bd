// Whether the linted file is test code, by its path inside the project: a test runs in one process
// against throw-away servers, in no replica, so what it schedules, writes or publishes does no harm
// at two or more of them.
import { projectPath } from './project-path.js';
import { isTestFilePath } from '../../src/knowledge/file-conventions.js';

/** Whether the file `context` lints is test code (`isTestFilePath` of its path relative to `cwd`; never by folders above it). */
export function isLintedTestCode(context: { filename: string; cwd: string }): boolean {
  const path = projectPath(context.filename, context.cwd);
  return path !== undefined && isTestFilePath(path);
}
