// A file's run switched on by an environment variable named for an operator's one-off database
// chore (`isOneOffScriptName`: seed, reset, truncate, drop, purge…):
//
//   if (process.env.SEED) { insertDB(); }          // "db:seed": "cross-env SEED=true node db/build.js"
//
// The variable is set by the command that seeds or resets the database, once, by hand; a server
// that imports the module never sets it. Only a file whose other top-level statements start
// nothing: one that also runs work unswitched is judged by that work. A switch named otherwise (`RUN_MIGRATIONS`, `IS_PRIMARY`)
// is a second migration path every configured replica takes, and stays reported.
import type { TSESTree } from '@typescript-eslint/utils';
import { isOneOffScriptName } from '../../src/knowledge/file-conventions.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { processEnvVariable } from '../../analysis/ast/process-env.js';
import { startsNothing } from '../../analysis/ast/only-declares.js';

/** Whether `test` holds only when a chore's variable is set: `process.env.SEED`, `=== 'true'`, `!!…`, a conjunction holding one. */
function isChoreSwitch(test: TSESTree.Node, depth = 0): boolean {
  if (depth > 3) return false;
  const value = unwrapExpression(test);
  switch (value.type) {
    case 'LogicalExpression':
      return value.operator === '&&' && (isChoreSwitch(value.left, depth + 1) || isChoreSwitch(value.right, depth + 1));
    case 'UnaryExpression':
      return value.operator === '!' && value.argument.type === 'UnaryExpression' && isChoreSwitch(value.argument.argument, depth + 1);
    case 'BinaryExpression':
      return (
        (value.operator === '===' || value.operator === '==') &&
        (isChoreSwitch(value.left, depth + 1) || isChoreSwitch(value.right, depth + 1))
      );
    default: {
      const variable = processEnvVariable(value);
      return variable !== undefined && isOneOffScriptName(variable);
    }
  }
}

/** Whether a top-level statement is `if (<a chore's variable is set>) { … }`. */
const isChoreSwitched = (statement: TSESTree.Node): boolean =>
  statement.type === 'IfStatement' && statement.alternate === null && isChoreSwitch(statement.test);

/**
 * Whether the file's run is only what a chore's variable switches on: a top-level `if (<the
 * variable is set>) { … }`, and no other top-level statement starts work (`startsNothing`).
 */
export function runsOnlyWhenChoreSwitchedOn(program: TSESTree.Program): boolean {
  const switched = program.body.filter(isChoreSwitched);
  if (switched.length === 0) return false;
  const rest = program.body.filter((statement) => !switched.includes(statement));
  return rest.length === 0 || startsNothing({ ...program, body: rest });
}
