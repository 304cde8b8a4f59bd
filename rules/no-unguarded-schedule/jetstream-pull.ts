// A poll loop pulling from a JetStream consumer: each pass begins with a pull of a batch
//   while (!this.stopping) { const batch = await this.consumer.fetch({ max_messages: 50, expires: 5000 }); … msg.ack(); }
// in a file that imports the NATS client and acknowledges what it got. A consumer whose messages
// are acked is a durable one: the server hands each message to one puller, so every replica pulling
// shares the stream's work instead of repeating it. A `fetch` of a file that imports no NATS client
// (an HTTP `fetch(url)`), or that never acks (an ordered consumer replays everything to each), stays work.
import type { TSESTree } from '@typescript-eslint/utils';
import type { SourceCode } from '@typescript-eslint/utils/ts-eslint';
import { ACK_METHODS, PULL_FETCH_METHOD, PULL_OPTION_KEYS, isNatsModule } from '../../src/knowledge/jetstream.js';
import { memberPropertyName, propertyKeyName } from '../../analysis/ast/property-names.js';
import { unwrapExpression } from '../../analysis/ast/unwrapped-expression.js';
import { descendants } from '../../analysis/sql/descendants.js';

/** The statements a pass begins with: the loop body's, or those of the `try` it opens with. */
function passStatements(body: TSESTree.BlockStatement): readonly TSESTree.Statement[] {
  const first = body.body[0];
  return first?.type === 'TryStatement' ? first.block.body : body.body;
}

/** `await x.fetch({ max_messages: n, … })`: the pull a pass opens with (a declaration's value or a bare statement). */
function isPull(statement: TSESTree.Statement | undefined): boolean {
  const value =
    statement?.type === 'VariableDeclaration' && statement.declarations.length === 1
      ? statement.declarations[0]!.init
      : statement?.type === 'ExpressionStatement'
        ? statement.expression
        : undefined;
  const call = value && unwrapExpression(value, { await: true });
  if (call?.type !== 'CallExpression' || call.callee.type !== 'MemberExpression') return false;
  if (memberPropertyName(call.callee) !== PULL_FETCH_METHOD) return false;
  return call.arguments.some(
    (a) =>
      a.type === 'ObjectExpression' &&
      a.properties.some((p) => p.type === 'Property' && PULL_OPTION_KEYS.includes(propertyKeyName(p) ?? '')),
  );
}

/** The file imports a NATS client module and acknowledges messages (`msg.ack()`). */
function acksNatsMessages(sourceCode: SourceCode): boolean {
  const program = sourceCode.ast;
  if (!program.body.some((s) => s.type === 'ImportDeclaration' && isNatsModule(String(s.source.value)))) return false;
  for (const node of descendants(program, sourceCode.visitorKeys))
    if (
      node.type === 'CallExpression' &&
      node.callee.type === 'MemberExpression' &&
      ACK_METHODS.includes(memberPropertyName(node.callee) ?? '')
    )
      return true;
  return false;
}

/** Whether each pass of the poll loop with `body` pulls a batch from an acked JetStream consumer (see the file's head). */
export function pullsFromDurableConsumer(sourceCode: SourceCode, body: TSESTree.BlockStatement): boolean {
  return isPull(passStatements(body)[0]) && acksNatsMessages(sourceCode);
}
