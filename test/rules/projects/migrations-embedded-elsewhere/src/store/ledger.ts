import { Sequelize } from 'sequelize';
import Umzug from 'umzug';

const ledger = new Sequelize(process.env.DATABASE_URL!, { logging: false });
const steps = new Umzug({
  migrations: { path: './dist/store/ledger-steps', params: [ledger.getQueryInterface()] },
  storage: 'sequelize',
  storageOptions: { sequelize: ledger },
});

export async function connectLedgerDb() {
  await ledger.authenticate();
  await steps.up();
}
