import { connect, JSONCodec } from 'nats';

const codec = JSONCodec<{ userId: string; email: string }>();
const js = (await connect()).jetstream();

export async function userRegistered(userId: string, email: string): Promise<void> {
  await js.publish('users.registered', codec.encode({ userId, email }));
}
