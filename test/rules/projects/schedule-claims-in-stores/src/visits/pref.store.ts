import type { Repository } from 'typeorm';

export class Pref {
  userId!: string;
  remindersOn!: boolean;
  seenAt!: Date | null;
}

export class PrefStore {
  constructor(private readonly rows: Repository<Pref>) {}

  // Get-or-create: the default row is upserted only where none was found.
  async forUser(userId: string) {
    const existing = await this.rows.findOne({ where: { userId } });
    if (existing) return existing;
    return this.upsertDefaults(userId);
  }

  async upsertDefaults(userId: string) {
    await this.rows.upsert({ userId, remindersOn: true }, ['userId']);
    return this.rows.findOneOrFail({ where: { userId } });
  }

  // Written at every call.
  async upsertSeen(userId: string) {
    await this.rows.upsert({ userId, seenAt: new Date() }, ['userId']);
  }
}
