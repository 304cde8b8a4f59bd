// The same folder of SQL files, run through Umzug (which takes no lock) and the ids written after.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Umzug } from 'umzug';
import { sql } from '../sql-client';

const folder = join(__dirname, '..', '..', 'migrations');
const umzug = new Umzug({
  migrations: readdirSync(folder).map((file) => ({ name: file, up: () => sql.unsafe(readFileSync(join(folder, file), 'utf8')) })),
  logger: console,
});
const applied = await umzug.up();
writeFileSync(join(__dirname, '..', 'applied.json'), JSON.stringify(applied.map((m) => m.name)));
