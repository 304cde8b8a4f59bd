import type { Repository } from 'typeorm';

export class RunRow {
  name!: string;
  day!: string;
  startedAt!: Date;
}

const today = () => new Date().toISOString().slice(0, 10);

export class RunStore {
  constructor(private readonly rows: Repository<RunRow>) {}

  // The run's row is keyed by its name and day: the second insert of the day fails.
  async begin(name: string): Promise<boolean> {
    try {
      await this.rows.insert({ name, day: today() });
      return true;
    } catch {
      return false;
    }
  }

  // A row of fresh values only: every replica's insert goes in.
  async beginLogged(): Promise<boolean> {
    try {
      await this.rows.insert({ startedAt: new Date() });
      return true;
    } catch {
      return false;
    }
  }
}
