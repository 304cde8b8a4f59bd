// File-system calls of scheduled work: the host's own disk. A write stays on this host unless its
// path names a directory every replica mounts (a share, NFS/EFS); a write under the app's cache or
// temporary directory stays here whatever else the path says. Read by the host-local walk
// (host-local-work.ts).
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { FS_READS, FS_WRITES, LOCAL_DIR_PATH, LOCAL_DIR_WORDS, SHARED_DIR_PATH, SHARED_DIR_WORDS } from '../../src/knowledge/host-local.js';
import { memberPropertyName } from '../ast/property-names.js';
import { valueOf } from './in-memory-values.js';
import { nameWords } from '../ast/name-words.js';

/** How many variables back a path is traced to its directory. */
const MAX_PATH_HOPS = 5;

/** What a path's text, its names or the values its variables hold say: a cache or temporary directory, or a shared one. */
interface PathWords {
  words: readonly string[];
  pattern: RegExp;
}
const LOCAL_DIR: PathWords = { words: LOCAL_DIR_WORDS, pattern: LOCAL_DIR_PATH };
const SHARED_DIR: PathWords = { words: SHARED_DIR_WORDS, pattern: SHARED_DIR_PATH };

/** Whether a path names one of `says` (its text, its names, the values its variables hold, a loop variable's collection). */
function pathSays(sourceCode: SourceCode, node: TSESTree.Node | undefined, says: PathWords, hops = 0): boolean {
  if (!node || hops > MAX_PATH_HOPS) return false;
  const named = (name: string | undefined) => name !== undefined && nameWords(name).some((w) => says.words.includes(w));
  const under = (child: TSESTree.Node | undefined) => pathSays(sourceCode, child, says, hops + 1);
  switch (node.type) {
    case 'Literal':
      return typeof node.value === 'string' && says.pattern.test(node.value);
    case 'TemplateLiteral':
      return node.quasis.some((q) => says.pattern.test(q.value.cooked ?? q.value.raw)) || node.expressions.some(under);
    case 'Identifier':
      return named(node.name) || under(valueOf(sourceCode, node));
    case 'MemberExpression':
      return named(memberPropertyName(node)) || under(node.object);
    case 'CallExpression':
      return (
        named(memberPropertyName(node.callee) ?? (node.callee.type === 'Identifier' ? node.callee.name : undefined)) ||
        node.arguments.some(under)
      );
    case 'LogicalExpression':
      return under(node.left) && under(node.right);
    case 'ConditionalExpression':
      return under(node.consequent) && under(node.alternate);
    case 'AwaitExpression':
    case 'TSAsExpression':
    case 'TSNonNullExpression':
      return under(node.type === 'AwaitExpression' ? node.argument : node.expression);
    default:
      return false;
  }
}

/**
 * A file-system call (`fs.promises.rm(dir)`, `readdir(dir)` from `fs/promises`): the host's own disk, reads and writes
 * alike (an export directory, uploads, a log) — unless a write's path names a shared mount (`SHARE_DIRECTORY`,
 * `/mnt/shared/…`) and not the app's cache or temporary directory. With `localFiles` false (a body read to
 * overrule a name that says it sends or writes out, `sendEmail` → `appendFile(spool)`), only the cache or temporary
 * directory counts: a file elsewhere may be what carries the work out (a mail spool), so the name still counts.
 */
export function isHostLocalFsCall(sourceCode: SourceCode, call: TSESTree.CallExpression, method: string, localFiles = true): boolean {
  const name = method.replace(/Sync$/, '');
  if (FS_READS.includes(name)) return true;
  if (!FS_WRITES.includes(name)) return false;
  const path = call.arguments[0];
  return (localFiles && !pathSays(sourceCode, path, SHARED_DIR)) || pathSays(sourceCode, path, LOCAL_DIR);
}
