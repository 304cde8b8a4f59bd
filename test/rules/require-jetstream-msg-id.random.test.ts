// A `msgID` made fresh at the publish — a random UUID, a nanoid, `Date.now()`, `new Date()`, a new
// ObjectId — is a new id when the publish is retried: the server stores the retry. So is a
// `Nats-Msg-Id` header set to one, or to a `const` the publishing function makes from one. A
// name-based UUID (`v5`), an id read from the message, a time or ObjectId made from the message's
// own value, or a random id made elsewhere and handed in is left alone.
import { ruleTester } from './rule-tester.js';
import { requireJetStreamMsgId, type RequireJetStreamMsgIdMessageIds } from '../../rules/require-jetstream-msg-id.js';

const lines = (...l: string[]) => l.join('\n');
const rule = requireJetStreamMsgId as unknown as Parameters<typeof ruleTester.run<RequireJetStreamMsgIdMessageIds, readonly unknown[]>>[1];
const CLIENT = "import { JetStreamClient } from 'nats';";
const publisher = (imports: string, msgId: string) =>
  lines(
    CLIENT,
    imports,
    'export class Publisher {',
    '  constructor(private js: JetStreamClient) {}',
    '  async publish(subject: string, data: Uint8Array, event: { id: string }) {',
    `    await this.js.publish(subject, data, { msgID: ${msgId} });`,
    '  }',
    '}',
  );
const random = (value: string, column = 51) => ({ messageId: 'randomMsgId' as const, line: 6, column, data: { value } });
/** A notifier that sets the message-id header to `tag`, made by `make` in the publishing method (line 5). */
const headerPublisher = (make: string, tag = 'tag') =>
  lines(
    "import { JetStreamClient, headers } from 'nats';",
    'export class Notifier {',
    '  constructor(private js: JetStreamClient) {}',
    '  async notify(subject: string, data: Uint8Array, event: { id: string; kind: string; at: string }) {',
    `    ${make}`,
    '    const h = headers();',
    `    h.set('Nats-Msg-Id', ${tag});`,
    '    await this.js.publish(subject, data, { headers: h });',
    '  }',
    '}',
  );
const randomHeader = (value = 'tag') => ({ messageId: 'randomMsgId' as const, line: 7, column: 26, data: { value } });

ruleTester.run('require-jetstream-msg-id: ids made at the publish', rule, {
  valid: [
    publisher('', 'event.id'),
    publisher("import { v5 } from 'uuid';", 'v5(event.id, NAMESPACE)'),
    publisher("import { v4 } from 'uuid';", 'String(event.id)'),
    // a project function of the same name is not the package's
    publisher("import { nanoid } from './ids';", 'nanoid()'),
    publisher('', 'makeId(event)'),
    // a time or an ObjectId made from the message's own value
    publisher('', '`${event.id}-${new Date(event.id).getTime()}`'),
    publisher("import { ObjectId } from 'mongodb';", 'new ObjectId(event.id).toHexString()'),
    // the message-id header made from the message alone, or from its own time
    headerPublisher('const tag = `${event.kind}:${event.id}`;'),
    headerPublisher('const tag = `${event.kind}:${new Date(event.at).toISOString()}`;'),
  ],
  invalid: [
    { code: publisher("import { v4 as uuidV4 } from 'uuid';", 'uuidV4()'), errors: [random('uuidV4()')] },
    { code: publisher("import { randomUUID } from 'node:crypto';", 'randomUUID()'), errors: [random('randomUUID()')] },
    { code: publisher('', 'crypto.randomUUID()'), errors: [random('crypto.randomUUID()')] },
    { code: publisher('', 'String(Date.now())'), errors: [random('String(Date.now())')] },
    { code: publisher("import { nanoid } from 'nanoid';", '`${subject}-${nanoid()}`'), errors: [random('`${subject}-${nanoid()}`')] },
    {
      code: publisher("import { randomBytes } from 'crypto';", "randomBytes(16).toString('hex')"),
      errors: [random("randomBytes(16).toString('hex')")],
    },
    {
      code: publisher("import { ObjectId } from 'mongodb';", 'new ObjectId().toHexString()'),
      errors: [random('new ObjectId().toHexString()')],
    },
    {
      code: publisher("import * as uuid from 'uuid';", 'uuid.v4()'),
      errors: [random('uuid.v4()')],
    },
    { code: publisher('', '`${event.id}-${new Date().toISOString()}`'), errors: [random('`${event.id}-${new Date().toISOString()}`')] },
    // the message-id header: the clock read where the publishing method makes it, or at the setter
    { code: headerPublisher('const tag = `${event.kind} for ${event.id} at ${new Date()}`;'), errors: [randomHeader()] },
    { code: headerPublisher('const tag = String(event.id);', 'String(Date.now())'), errors: [randomHeader('String(Date.now())')] },
  ],
});
