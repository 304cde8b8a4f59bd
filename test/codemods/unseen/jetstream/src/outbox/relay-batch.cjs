'use strict';

const { connect, StringCodec } = require('nats');

const sc = StringCodec();

async function flushOutbox(db) {
  const nc = await connect({ servers: process.env.NATS_URL });
  const js = nc.jetstream();
  const pending = await db('outbox_messages').whereNull('sent_at').limit(200);
  for (const message of pending) {
    await js.publish(message.topic, sc.encode(JSON.stringify(message.body)), { expect: { streamName: 'EVENTS' } });
    await db('outbox_messages').where({ id: message.id }).update({ sent_at: new Date() });
  }
  await nc.close();
}

module.exports = { flushOutbox };
