import { connect, type NatsConnection } from 'nats';

let connection: NatsConnection | undefined;

async function conn(): Promise<NatsConnection> {
  connection ??= await connect({ servers: process.env.NATS_URL });
  return connection;
}

/** The stream handle every publisher shares. */
export async function openBus() {
  const nc = await conn();
  return nc.jetstream();
}

/** Goes through openBus: two calls deep. */
export const busFor = async (_tenant: string) => openBus();

/** Core NATS, no stream. */
export const plainConnection = conn;
