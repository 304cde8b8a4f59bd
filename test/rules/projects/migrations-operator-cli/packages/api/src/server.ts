import { createServer } from 'node:http';
import { Command } from 'commander';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { drizzle } from 'drizzle-orm/node-postgres';

// A start file that also parses its arguments with commander is still the server.
const options = new Command().option('--port <port>').parse().opts<{ port?: string }>();
const db = drizzle(process.env.DATABASE_URL!);
await migrate(db, { migrationsFolder: './drizzle' });
createServer(() => undefined).listen(Number(options.port ?? 3000));
