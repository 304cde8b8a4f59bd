import type { SchedulerRegistry } from '@nestjs/schedule';
import { CronJob } from 'cron';

/** Registers a cron job running `handle`. */
export function addJob(registry: SchedulerRegistry, name: string, cronTime: string, handle: () => void) {
  const job = new CronJob(cronTime, handle);
  registry.addCronJob(name, job);
  job.start();
}

/** Names a task for the logs; runs nothing. */
export function describeTask(name: string, task: () => void): string {
  return `${name}:${task.name}`;
}
