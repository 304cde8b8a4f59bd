import { connect } from 'nats';

export async function forward(message: { id: string; subject: string; body: Uint8Array }): Promise<void> {
  const js = (await connect()).jetstream();
  await js.publish(`forwarded.${message.subject}`, message.body);
}
