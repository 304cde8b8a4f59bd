// Whether the linted file is test code, by its path inside the project: a test runs in one process
// against throw-away servers, in no replica, so what it schedules, writes or publishes does no harm
// at two or more of them. Several rules ask about every file: the answer is kept for the file
// asked about last, and the folders' half of it for the folder (a lint goes folder by folder).
import { projectPath } from './project-path.js';
import { isInTestFolder, isTestFileName } from '../../src/knowledge/file-conventions.js';

/** The file asked about last, its working directory, and the answer. */
let lastFilename: string | undefined;
let lastCwd: string | undefined;
let lastAnswer = false;
/** The folder of a file asked about before (as written, up to its last separator), with its working directory and what it makes of its files. */
let folder: string | undefined;
let folderCwd: string | undefined;
/** Outside the project (`cwd`): never test code; in a test folder: always; else as the file's name says. */
let folderRole: 'outside' | 'test' | 'by-name' = 'by-name';

/** Whether the file `context` lints is test code (`isTestFilePath` of its path relative to `cwd`; never by folders above it). */
export function isLintedTestCode(context: { filename: string; cwd: string }): boolean {
  const filename = context.filename;
  const cwd = context.cwd;
  if (filename === lastFilename && cwd === lastCwd) return lastAnswer;
  // The path inside the project and its folders follow from the folder alone: a name holds no separator.
  const cut = Math.max(filename.lastIndexOf('/'), filename.lastIndexOf('\\'));
  if (cwd !== folderCwd || folder === undefined || cut !== folder.length || !filename.startsWith(folder)) {
    const path = projectPath(filename, cwd);
    folderRole = path === undefined ? 'outside' : isInTestFolder(path.split('/').slice(0, -1)) ? 'test' : 'by-name';
    folder = filename.slice(0, Math.max(cut, 0));
    folderCwd = cwd;
  }
  lastFilename = filename;
  lastCwd = cwd;
  lastAnswer = folderRole === 'test' || (folderRole === 'by-name' && isTestFileName(filename.slice(cut + 1)));
  return lastAnswer;
}
