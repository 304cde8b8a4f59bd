import { connect } from 'nats';

export async function startHeartbeat(): Promise<NodeJS.Timeout> {
  const nc = await connect();
  const js = nc.jetstream();
  return setInterval(() => {
    void js.publish('service.heartbeat', new TextEncoder().encode(String(Date.now())));
  }, 10_000);
}
