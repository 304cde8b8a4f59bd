// The file's text with its comments blanked out: what the rules' text pre-checks read. A word in
// a comment never makes a finding, and library and framework sources are often as much JSDoc as
// code, so the checks pass fewer files and scan less text. Built once per file and shared by
// every rule (kept for the file being linted).
import type { TSESLint } from '@typescript-eslint/utils';
import { lastFileCache } from './last-file-cache.js';

function withoutComments(sourceCode: Readonly<TSESLint.SourceCode>): string {
  const text = sourceCode.text;
  const comments = sourceCode.ast.comments ?? sourceCode.getAllComments();
  if (comments.length === 0) return text;
  const parts: string[] = [];
  let at = 0;
  for (const comment of comments) {
    parts.push(text.slice(at, comment.range[0]), ' ');
    at = comment.range[1];
  }
  parts.push(text.slice(at));
  return parts.join('');
}

/** `sourceCode.text` with each comment replaced by one space (offsets are not kept: for word tests only). */
export const codeTextOf: (sourceCode: Readonly<TSESLint.SourceCode>) => string = lastFileCache(withoutComments);
