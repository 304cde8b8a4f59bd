import path from 'node:path';
import { Umzug, SequelizeStorage } from 'umzug';
import { Sequelize } from 'sequelize';

const migrationsDir = path.join(__dirname, '..', 'migrations');

export async function migrateWithUrl(url: string) {
  const sequelize = new Sequelize(url);
  const umzug = new Umzug({ migrations: { glob: `${migrationsDir}/*.js` }, storage: new SequelizeStorage({ sequelize }), logger: console });
  await umzug.up();
}
