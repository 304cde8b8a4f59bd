import { Umzug, SequelizeStorage } from 'umzug';
import { sequelize } from './sequelize-instance';

const umzug = new Umzug({
  migrations: { glob: 'migrations/*.js' },
  context: sequelize.getQueryInterface(),
  storage: new SequelizeStorage({ sequelize }),
  logger: console,
});

export async function prepareDatabase(): Promise<void> {
  await sequelize.authenticate();
  await umzug.up();
}
