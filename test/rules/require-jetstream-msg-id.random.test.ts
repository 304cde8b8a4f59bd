// A `msgID` made fresh at the publish — a random UUID, a nanoid, `Date.now()`, a new ObjectId —
// is a new id when the publish is retried: the server stores the retry. A name-based UUID (`v5`),
// an id read from the message, or a random id made elsewhere and handed in is left alone.
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

ruleTester.run('require-jetstream-msg-id: ids made at the publish', rule, {
  valid: [
    publisher('', 'event.id'),
    publisher("import { v5 } from 'uuid';", 'v5(event.id, NAMESPACE)'),
    publisher("import { v4 } from 'uuid';", 'String(event.id)'),
    // a project function of the same name is not the package's
    publisher("import { nanoid } from './ids';", 'nanoid()'),
    publisher('', 'makeId(event)'),
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
  ],
});
