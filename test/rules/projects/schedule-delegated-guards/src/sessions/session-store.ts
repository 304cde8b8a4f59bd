import { Injectable } from '@nestjs/common';
import Database from 'better-sqlite3';

/** Sessions of this instance, in a SQLite file next to it. */
@Injectable()
export class SessionStore {
  private readonly db = new Database('./data/sessions.sqlite');

  pruneExpired(): number {
    return this.db.prepare('DELETE FROM sessions WHERE expires_at < ?').run(Date.now()).changes;
  }
}
