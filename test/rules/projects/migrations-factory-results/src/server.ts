import { createServer } from 'node:http';
import { ledgerTools, migratorFor, priceCacheMigrator, scratchTools, settingsTools, stepsFor } from './migrations/factories';
import { orders, warehouse } from './db';

export async function start() {
  const migrator = migratorFor(warehouse);
  await migrator.migrateToLatest();
  const steps = stepsFor(orders);
  await steps.up();
  await ledgerTools(orders).sync();
  const tools = ledgerTools(orders);
  await tools.migrate();

  const prices = priceCacheMigrator('./prices.db');
  await prices.migrateToLatest();
  await priceCacheMigrator('./quotes.db').migrateToLatest();
  await scratchTools().sync();
  const settings = settingsTools('./settings.json');
  await settings.migrate();

  createServer().listen(8080);
}
