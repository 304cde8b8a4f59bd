import { connect } from 'nats';

export const stream = (await connect()).jetstream();
