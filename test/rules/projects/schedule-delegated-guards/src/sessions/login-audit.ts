import { Injectable } from '@nestjs/common';
import pg from 'pg';

/** Login attempts of every instance, in the shared PostgreSQL database. */
@Injectable()
export class LoginAudit {
  private readonly db = new pg.Pool({ connectionString: process.env.DATABASE_URL });

  async pruneExpired(): Promise<void> {
    await this.db.query("DELETE FROM login_attempts WHERE at < now() - interval '30 days'");
  }
}
