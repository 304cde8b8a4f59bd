import { makeStore } from './make-store';

const [db, applySchema] = makeStore(process.env.ORDERS_URL ?? '');

export { db, applySchema };
