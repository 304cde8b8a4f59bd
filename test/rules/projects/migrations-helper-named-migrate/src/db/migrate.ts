import fs from 'fs';
import path from 'path';

export default async function applyMigrationFiles(pool: { connect(): Promise<{ query(sql: string): Promise<unknown> }> }) {
  const dir = path.join(__dirname, 'migrations');
  const migrationFiles = fs.readdirSync(dir).sort();
  const client = await pool.connect();
  for (const file of migrationFiles) {
    await client.query(fs.readFileSync(path.join(dir, file), 'utf8'));
  }
}
