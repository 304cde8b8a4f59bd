import { Injectable } from '@nestjs/common';

/** Which replica the election made leader (kept up to date by the election's events). */
@Injectable()
export class ClusterService {
  private leader = false;

  get isLeader(): boolean {
    return this.leader;
  }

  onElected(): void {
    this.leader = true;
  }
}
