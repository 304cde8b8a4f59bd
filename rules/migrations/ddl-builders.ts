// SQL text a function of the file builds and returns: `const tableDdl = (name) => `CREATE TABLE IF NOT
// EXISTS ${name} (…)``, `function indexSql(table) { return 'CREATE INDEX …'; }`. A call of it as the SQL
// of a database call (`await pool.query(tableDdl('parcels'))`) sends what it returns: the returned
// strings and templates are read as the argument's text (ddl-executions.ts). Only a function
// declared in this file, once, and only what it returns as written (a string, a template, a SQL-tagged
// template): a builder imported from another module, or one that assembles its text from parts, is not followed.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { scopeVariable } from '../../analysis/ast/scope-variable.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { returnedExpressions } from '../../analysis/ast/returned-expressions.js';

/** The expressions the function `call` names returns, when it is a function declared in this file (else none). */
export function builtDdlTexts(call: TSESTree.CallExpression, sourceCode: Readonly<TSESLint.SourceCode>): TSESTree.Node[] {
  const callee = unwrapExpression(call.callee);
  if (callee.type !== 'Identifier') return [];
  const variable = scopeVariable(sourceCode, callee);
  const def = variable?.defs.length === 1 ? variable.defs[0]?.node : undefined;
  const fn =
    def?.type === 'FunctionDeclaration' ? def : def?.type === 'VariableDeclarator' && def.init ? unwrapExpression(def.init) : undefined;
  if (!fn || (fn.type !== 'FunctionDeclaration' && fn.type !== 'ArrowFunctionExpression' && fn.type !== 'FunctionExpression')) return [];
  return returnedExpressions(fn);
}
