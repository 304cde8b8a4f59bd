// require-jetstream-msg-id across the files of a project: a context made by a helper in another
// module (one or two calls deep) or exported by one, published from a file that names neither
// NATS nor JetStream. Linted through ESLint's Node API with the plugin built from source.
import { describe, expect, test } from 'vitest';
import { lintProjectFile } from './lint-project.js';

const findings = (project: string, file: string) => lintProjectFile(project, file, ['require-jetstream-msg-id']);

describe('require-jetstream-msg-id across files', () => {
  test('contexts from a helper module and an exported value; core NATS and msgID stay quiet', async () => {
    expect(await findings('jetstream-helpers', 'src/orders.ts')).toEqual([
      'replica-guard/require-jetstream-msg-id src/orders.ts:6:13 missingMsgId',
      'replica-guard/require-jetstream-msg-id src/orders.ts:7:26 missingMsgId',
      'replica-guard/require-jetstream-msg-id src/orders.ts:8:47 optionsWithoutMsgId',
    ]);
  });

  test('a subclass whose publish is in a package is reported where it is handed a context; a project helper is judged in its own file', async () => {
    expect(await findings('jetstream-package-helpers', 'src/tickets.ts')).toEqual([
      'replica-guard/require-jetstream-msg-id src/tickets.ts:6:52 helperWithoutMsgId',
    ]);
    expect(await findings('jetstream-package-helpers', 'src/audit-publisher.ts')).toEqual([]);
  });

  test("a publisher handed the connection a project holder keeps is reported, unless the holder's module imports NATS Streaming", async () => {
    expect(await findings('jetstream-held-connections', 'src/orders.ts')).toEqual([
      'replica-guard/require-jetstream-msg-id src/orders.ts:6:55 helperOnHeldConnectionWithoutMsgId',
    ]);
  });

  test('headers built by a project helper carry the message id when it writes Nats-Msg-Id (one or two calls away)', async () => {
    expect(await findings('jetstream-header-helpers', 'src/ledger.ts')).toEqual([
      'replica-guard/require-jetstream-msg-id src/ledger.ts:7:59 optionsWithoutMsgId',
    ]);
  });

  test('a project helper that publishes with the id its caller hands it is reported at the calls that hand none', async () => {
    expect(await findings('jetstream-forwarding-helpers', 'src/orders.ts')).toEqual([
      'replica-guard/require-jetstream-msg-id src/orders.ts:5:9 forwardedWithoutMsgId',
      'replica-guard/require-jetstream-msg-id src/orders.ts:7:9 forwardedWithoutMsgId',
      'replica-guard/require-jetstream-msg-id src/orders.ts:9:19 forwardedWithoutMsgId',
    ]);
    expect(await findings('jetstream-forwarding-helpers', 'src/nats/publish.ts')).toEqual([]);
  });

  test('a helper merging its defaults with the options its caller hands it, and ids made fresh at the call, are judged at the calls', async () => {
    expect(await findings('jetstream-forwarding-helpers', 'src/payments.ts')).toEqual([
      'replica-guard/require-jetstream-msg-id src/payments.ts:6:9 forwardedWithoutMsgId',
      'replica-guard/require-jetstream-msg-id src/payments.ts:8:62 randomMsgId',
      'replica-guard/require-jetstream-msg-id src/payments.ts:11:55 randomMsgId',
      'replica-guard/require-jetstream-msg-id src/payments.ts:14:32 forwardedWithoutMsgId',
    ]);
  });

  test('the helper module itself publishes nothing', async () => {
    expect(await findings('jetstream-helpers', 'src/bus.ts')).toEqual([]);
  });
});
