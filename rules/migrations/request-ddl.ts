// Layout DDL a request handler sends before its own work: `app.post('/tickets', async (req, res) =>
// { await pool.query('CREATE TABLE IF NOT EXISTS tickets (…)'); await pool.query('INSERT INTO
// tickets …') })`. Not an operator's endpoint that lays out the schema once when asked (the rule's
// request-handler filter keeps those quiet): the handler serves the service's traffic, so every
// replica sends the DDL on every such request, racing the others and taking the table's lock each
// time. Told from the file: the DDL is written in the call (a string or template); the handler also
// sends a statement of its own work (`SELECT`, `INSERT`, `UPDATE`, `DELETE`); the client talks to a
// database server (the file imports a server driver, or the client is imported from a project
// module named for its database, `./pg.js`, `../db`) and not to an embedded file.
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import type { DetectContext } from '../../analysis/detect-context.js';
import { moduleSpecifiers } from '../../analysis/imports/imported-references.js';
import { moduleBindings } from '../../analysis/imports/module-bindings.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { requestHandlerAround } from '../../analysis/request-handler-around.js';
import { projectPath } from '../../analysis/source/project-path.js';
import { descendants } from '../../analysis/sql/descendants.js';
import { sqlOfCall } from '../../analysis/sql/sql-text.js';
import { DATABASE_MODULE_SPECIFIER } from '../../src/knowledge/database-access.js';
import { isProjectModuleSpecifier } from '../../src/knowledge/project-modules.js';
import { EMBEDDED_CLIENT_MODULES } from '../../src/knowledge/embedded-databases.js';
import { LAYOUT_DDL, SERVER_DRIVER_MODULES } from '../../src/knowledge/start-ddl.js';
import { EMBEDDED_MODULE_WORD, ROW_WORK_SQL } from '../../src/knowledge/layout-steps.js';
import { receiverIsEmbedded } from './embedded-database.js';

type Call = TSESTree.CallExpression;
type SourceCode = Readonly<TSESLint.SourceCode>;

const LAYOUT_DDL_ANYWHERE = new RegExp(LAYOUT_DDL.source, 'gi');

/** SQL written in the call that sends it (`pool.query('…')`: a string or template first argument), with the client. */
function writtenSqlSend(
  node: TSESTree.Node | undefined,
  sourceCode: SourceCode,
): { call: Call; receiver: TSESTree.Expression; sql: string } | undefined {
  if (node?.type !== 'CallExpression') return undefined;
  const [first] = node.arguments;
  const value = first && first.type !== 'SpreadElement' ? unwrapExpression(first) : undefined;
  if (value?.type !== 'Literal' && value?.type !== 'TemplateLiteral') return undefined;
  const use = sqlOfCall(node, sourceCode);
  return use?.client ? { call: node, receiver: use.client, sql: use.sql.text } : undefined;
}

/** Whether the client a call is sent through talks to a database server, in view of the file. */
function talksToServer(receiver: TSESTree.Expression, sourceCode: SourceCode, driver: boolean): boolean {
  if (receiverIsEmbedded(receiver, sourceCode)) return false;
  if (driver) return true;
  let root = unwrapExpression(receiver);
  while (root.type === 'MemberExpression') root = unwrapExpression(root.object);
  const specifier = root.type === 'Identifier' ? moduleBindings(sourceCode.ast).get(root.name) : undefined;
  return (
    specifier !== undefined &&
    isProjectModuleSpecifier(specifier) &&
    DATABASE_MODULE_SPECIFIER.test(specifier) &&
    !EMBEDDED_MODULE_WORD.test(specifier)
  );
}

/** Whether a handler sends a statement of its own work besides the DDL, written in the call. */
function sendsRowWork(handler: TSESTree.Node, sourceCode: SourceCode): boolean {
  for (const node of descendants(handler, sourceCode.visitorKeys, () => false)) {
    const send = writtenSqlSend(node, sourceCode);
    if (send && ROW_WORK_SQL.test(send.sql)) return true;
  }
  return false;
}

/**
 * The calls sending layout DDL written in them from a request handler that also does its own work, each with the name it is
 * reported by; none unless the file may hold layout DDL (`mayHold`, the rule's `startDdl` mention). Reported past the rule's
 * request-handler filter: on every request, not an operator's one-off.
 */
export function requestDdlCalls(context: DetectContext, mayHold: boolean): Map<Call, string> {
  const sourceCode = context.sourceCode;
  const out = new Map<Call, string>();
  if (!mayHold) return out;
  const modules = moduleSpecifiers(sourceCode.ast);
  if (EMBEDDED_CLIENT_MODULES.some((module) => modules.has(module))) return out;
  const driver = SERVER_DRIVER_MODULES.some((module) => modules.has(module));
  const program = sourceCode.ast as TSESTree.Program;
  const path = projectPath(context.filename, context.cwd);
  const text = sourceCode.text;
  LAYOUT_DDL_ANYWHERE.lastIndex = 0;
  for (let match = LAYOUT_DDL_ANYWHERE.exec(text); match; match = LAYOUT_DDL_ANYWHERE.exec(text)) {
    let string = sourceCode.getNodeByRangeIndex(match.index) as TSESTree.Node | null;
    if (string?.type === 'TemplateElement') string = string.parent;
    const send = writtenSqlSend(string?.parent, sourceCode);
    if (!send || send.call.arguments[0] !== string || out.has(send.call)) continue;
    if (!talksToServer(send.receiver, sourceCode, driver)) continue;
    const handler = requestHandlerAround(send.call, program, path);
    if (handler && sendsRowWork(handler, sourceCode)) out.set(send.call, `${sourceCode.getText(send.call.callee)}()`);
  }
  return out;
}
