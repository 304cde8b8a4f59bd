import { Cron } from '@nestjs/schedule';
import { election } from './election';

// Scheduled only where this process won the election.
export function LeaderCron(expression: string): MethodDecorator {
  if (!election.isLeader()) return () => {};
  return Cron(expression);
}
