// Writes the ids of the SQL migration files into a TypeScript module; touches no database.
import { readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const folder = join(__dirname, '..', '..', 'migrations');
const entries = readdirSync(folder)
  .filter((file) => file.endsWith('.sql'))
  .map((file, index) => `  ${JSON.stringify(file.replace(/^\d+-|\.sql$/g, ''))}: ${index + 1},`);

writeFileSync(resolve(__dirname, '..', 'schema-ids.ts'), `export const SchemaIds = {\n${entries.join('\n')}\n} as const;\n`, 'utf8');
