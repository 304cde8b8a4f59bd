import { makeStore } from '../src/store/make-store';

const [, applySchema] = makeStore(process.env.TEST_ORDERS_URL ?? '');

beforeAll(async () => {
  await applySchema();
});
