import { connect } from 'nats';

// Plain JavaScript syntax on purpose: read under oxlint too (see the oxlint parity test).
const connection = connect({ servers: process.env.NATS_URL });

/** The stream handle every publisher shares. */
export async function openBus() {
  const nc = await connection;
  return nc.jetstream();
}

/** Goes through openBus: two calls deep. */
export const busFor = async () => openBus();

/** Core NATS, no stream. */
export const plainConnection = () => connection;
