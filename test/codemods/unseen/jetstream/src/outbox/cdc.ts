import { jetstream } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';

export async function publishChanges(changes: Array<{ lsn: string; table: string; row: unknown }>): Promise<void> {
  const js = jetstream(await connect());
  for (const change of changes) {
    await js.publish(`cdc.${change.table}`, JSON.stringify(change.row));
  }
}
