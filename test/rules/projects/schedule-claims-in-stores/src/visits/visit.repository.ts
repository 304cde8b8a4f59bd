import type { Repository } from 'typeorm';

export class Visit {
  id!: string;
  email!: string;
  remindedAt!: Date | null;
  openedAt!: Date | null;
}

export class VisitRepository {
  constructor(private readonly rows: Repository<Visit>) {}

  findDue(hours: number) {
    return this.rows.createQueryBuilder('v').where('v.starts_at < now() + make_interval(hours => :hours)', { hours }).getMany();
  }

  // Claims the reminder: only the update that still finds it unset counts a row.
  async markReminded(id: string): Promise<boolean> {
    const result = await this.rows
      .createQueryBuilder()
      .update(Visit)
      .set({ remindedAt: new Date() })
      .where('id = :id', { id })
      .andWhere('reminded_at IS NULL')
      .execute();
    return (result.affected ?? 0) > 0;
  }

  // Keyed by its id only: every replica's update counts the row.
  async markOpened(id: string): Promise<boolean> {
    const result = await this.rows.update({ id }, { openedAt: new Date() });
    return (result.affected ?? 0) > 0;
  }

  async markSurveyed(id: string): Promise<void> {
    await this.rows.update({ id }, { openedAt: new Date() });
  }
}
