// The statements that run their body again: `for`, `for…of`, `for…in`, `while`, `do…while`.
import type { TSESTree } from '@typescript-eslint/utils';

const LOOP_TYPES: ReadonlySet<string> = new Set(['ForStatement', 'ForInStatement', 'ForOfStatement', 'WhileStatement', 'DoWhileStatement']);

/** Whether `node` is a loop statement. */
export const isLoopStatement = (node: TSESTree.Node): boolean => LOOP_TYPES.has(node.type);
