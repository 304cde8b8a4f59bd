import { getMigrator } from '../src/db/get-migrator';

const { migrator, slonik } = await getMigrator();
await migrator.up();
await slonik.end();
