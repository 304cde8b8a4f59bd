import cluster from 'node:cluster';
import { Cron } from '@nestjs/schedule';

// pm2's first instance of a cluster's primary: one process per host.
const firstInstance = process.env.NODE_APP_INSTANCE === undefined || process.env.NODE_APP_INSTANCE === '0';

export const PrimaryCron: typeof Cron = (...args) => {
  if (cluster.isPrimary && firstInstance) return Cron.call(null, ...args);
  const skip: MethodDecorator = () => {};
  return skip;
};
