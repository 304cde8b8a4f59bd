import { Sequelize } from 'sequelize';
import glob from 'glob';
import { Catalog } from './catalog';

export class Store {
  readonly sequelize = new Sequelize(process.env.DATABASE_URL ?? '');
  readonly catalog = new Catalog(this.sequelize);

  seedFiles(dir: string): string[] {
    return glob.sync(`${dir}/*.json`);
  }

  async refreshCatalog(): Promise<void> {
    await this.catalog.sync();
  }

  async createTables(): Promise<void> {
    await this.sequelize.sync({ alter: true });
  }
}

export async function setupDatabase(store: Store): Promise<void> {
  store.seedFiles('seeds');
  await store.refreshCatalog();
}

export async function initDatabase(store: Store): Promise<void> {
  await store.createTables();
}
