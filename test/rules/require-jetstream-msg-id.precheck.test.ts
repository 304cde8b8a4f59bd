// require-jetstream-msg-id's text pre-check: the method's rare-letter stem (`blish`), then its
// whole name. A publish named only in a comment is nothing; a publish call spread over lines is
// found where the name is written.
import { ruleTester } from './rule-tester.js';
import { requireJetStreamMsgId, type RequireJetStreamMsgIdMessageIds } from '../../rules/require-jetstream-msg-id.js';

const lines = (...l: string[]) => l.join('\n');
const rule = requireJetStreamMsgId as unknown as Parameters<typeof ruleTester.run<RequireJetStreamMsgIdMessageIds, readonly unknown[]>>[1];
const V2 = "import { connect } from 'nats';";

ruleTester.run('require-jetstream-msg-id pre-check', rule, {
  valid: [
    // `publish` only in comments; the code establishes (`establish`) a context and never publishes.
    lines(
      V2,
      '// js.publish(subject, data) without msgID would be stored twice',
      'const js = (await connect()).jetstream();',
      'establish(js);',
    ),
  ],
  invalid: [
    // The call spread over lines: the squiggle sits on the method's name.
    {
      code: lines(V2, 'const js = (await connect()).jetstream();', 'await js', "  .publish('orders', data);"),
      errors: [{ messageId: 'missingMsgId', line: 4, column: 4, endLine: 4, endColumn: 11, suggestions: [] }],
    },
  ],
});
