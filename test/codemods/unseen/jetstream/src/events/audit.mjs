import { connect } from 'nats';

const nc = await connect();
const js = nc.jetstream();

export async function audit(record) {
  await js.publish('audit.log', JSON.stringify(record));
}
