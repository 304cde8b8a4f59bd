import Database from 'better-sqlite3';

const cache = new Database('./data/cache.sqlite');

export function dropStaleEntries(): void {
  cache.prepare('DELETE FROM entries WHERE fetched_at < ?').run(Date.now() - 86_400_000);
}
