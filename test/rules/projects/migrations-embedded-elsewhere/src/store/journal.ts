import { Sequelize } from 'sequelize';
import Umzug from 'umzug';

const journal = new Sequelize({ dialect: 'sqlite', storage: './data/journal.sqlite', logging: false });
const steps = new Umzug({
  migrations: { path: './dist/store/journal-steps', params: [journal.getQueryInterface()] },
  storage: 'sequelize',
  storageOptions: { sequelize: journal },
});

export async function connectJournalDb() {
  await journal.authenticate();
  await steps.up();
}
