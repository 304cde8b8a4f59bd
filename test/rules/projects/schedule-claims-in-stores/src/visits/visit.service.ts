import { VisitRepository } from './visit.repository';

export class VisitService {
  constructor(private readonly repo: VisitRepository) {}

  findDue(hours: number) {
    return this.repo.findDue(hours);
  }

  async markReminded(id: string): Promise<boolean> {
    return this.repo.markReminded(id);
  }

  async markOpened(id: string): Promise<boolean> {
    return this.repo.markOpened(id);
  }

  markSurveyed(id: string) {
    return this.repo.markSurveyed(id);
  }
}
