// Test code runs in one process against throw-away servers, in no replica: a timer a test sets, or a
// message it publishes, is not repeated by a second pod. no-unguarded-schedule and
// require-jetstream-msg-id judge it by the path inside the project, as the other rules do; a word
// like "test" inside a file or folder name (`contest`, `latest`) is no test folder.
import { ruleTester } from './rule-tester.js';
import { noUnguardedSchedule } from '../../rules/no-unguarded-schedule.js';
import { requireJetStreamMsgId, type RequireJetStreamMsgIdMessageIds } from '../../rules/require-jetstream-msg-id.js';

const lines = (...l: string[]) => l.join('\n');
const settings = { 'replica-guard': { service: 'mail' } };

/** A ticker whose work sends mail. */
const TICKER = lines("import { mailer } from './mailer';", 'setInterval(async () => {', "  await mailer.send('digest');", '}, 60_000);');
/** Reported at the ticker's callback; the suggested key is named for the file and line. */
const tickerReported = (filename: string, key: string) => ({
  settings,
  filename,
  code: TICKER,
  errors: [
    {
      messageId: 'unguardedSchedule' as const,
      line: 2,
      column: 13,
      suggestions: [
        {
          messageId: 'addClaimPeriod' as const,
          output: lines(
            "import { mailer } from './mailer';",
            "import { claimPeriod } from 'replica-guard';",
            'setInterval(async () => {',
            `  if (!(await claimPeriod('mail:${key}', 60_000))) return;`,
            "  await mailer.send('digest');",
            '}, 60_000);',
          ),
        },
      ],
    },
  ],
});

ruleTester.run('no-unguarded-schedule (test code)', noUnguardedSchedule, {
  valid: [
    { settings, code: TICKER, filename: 'src/mail/ticker.test.ts' },
    { settings, code: TICKER, filename: 'test/helpers/ticker.ts' },
    { settings, code: TICKER, filename: 'packages/mail/src/__tests__/ticker.ts' },
    { settings, code: TICKER, filename: 'apps/api/test/ticker.e2e-spec.ts' },
  ],
  invalid: [
    tickerReported('src/mail/ticker.ts', 'ticker-2'),
    tickerReported('src/contest/ticker.ts', 'ticker-2'),
    tickerReported('src/latest-ticker.ts', 'latest-ticker-2'),
  ],
});

const jetStreamRule = requireJetStreamMsgId as unknown as Parameters<
  typeof ruleTester.run<RequireJetStreamMsgIdMessageIds, readonly unknown[]>
>[1];

/** An order event published to JetStream without a message id. */
const PUBLISH = lines(
  "import { connect } from 'nats';",
  'const js = (await connect()).jetstream();',
  "await js.publish('orders.created', data);",
);
const publishReported = (filename: string) => ({
  filename,
  code: PUBLISH,
  errors: [{ messageId: 'missingMsgId' as const, line: 3, column: 10, suggestions: [] }],
});

ruleTester.run('require-jetstream-msg-id (test code)', jetStreamRule, {
  valid: [
    { code: PUBLISH, filename: 'src/orders/publish.spec.ts' },
    { code: PUBLISH, filename: 'tests/orders/publish.ts' },
  ],
  invalid: [publishReported('src/orders/publish.ts'), publishReported('src/latest/publish.ts')],
});
