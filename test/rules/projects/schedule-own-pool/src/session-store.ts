// A store over the shared database: its cleanup deletes rows every replica sees.
interface Db {
  deleteMany(filter: object): Promise<number>;
}

export class SessionStore {
  constructor(private readonly db: Db) {}

  cleanupExpiredSessions(): void {
    void this.db.deleteMany({ expiresAt: { $lt: new Date() } });
  }
}
