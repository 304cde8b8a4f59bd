import { MikroORM } from '@mikro-orm/core';
import config from './mikro-orm.config';

export async function initOrm(): Promise<MikroORM> {
  const orm = await MikroORM.init(config);
  await orm.getMigrator().up();
  return orm;
}
