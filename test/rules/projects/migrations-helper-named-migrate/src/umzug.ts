import { Umzug, SequelizeStorage } from 'umzug';
import { Sequelize } from 'sequelize';

const sequelize = new Sequelize(process.env.DATABASE_URL!);
export const umzug = new Umzug({ migrations: { glob: 'migrations/*.js' }, storage: new SequelizeStorage({ sequelize }), logger: console });
