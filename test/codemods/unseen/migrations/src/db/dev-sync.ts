import { Sequelize } from 'sequelize';

const sequelize = new Sequelize(process.env.DATABASE_URL as string);

export async function connectDatabase(): Promise<void> {
  await sequelize.authenticate();
  if (process.env.NODE_ENV === 'development') await sequelize.sync();
}
