import { Database } from 'bun:sqlite';

const cache = new Database('/var/cache/boards/thumbnails.db');

// Each host's own cache file: no other replica shares it.
export async function migrateThumbnailSchema() {
  cache.query('CREATE TABLE IF NOT EXISTS thumbnail (key TEXT PRIMARY KEY, data BLOB)').run();
}
