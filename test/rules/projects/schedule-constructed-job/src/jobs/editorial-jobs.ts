import { claimPeriod } from 'replica-guard';
import { db } from '../db';
import { NightlyCronJob } from '../support/nightly-cron-job';
import { ParkedCronJob } from '../support/parked-cron-job';

const recentTitles = new Map<string, number>();

export const staleDrafts = new NightlyCronJob('15 2 * * *', 'stale-drafts', async () => {
  await db.draft.deleteMany({ where: { updatedAt: { lt: new Date(Date.now() - 86_400_000) } } });
});

export const titleMemo = new NightlyCronJob('*/10 * * * *', 'title-memo', async () => {
  recentTitles.clear();
});

export const mondayRecap = new NightlyCronJob('0 6 * * 1', 'monday-recap', async () => {
  if (!(await claimPeriod('editorial:monday-recap', { cron: '0 6 * * 1' }))) return;
  await db.digest.create({ data: { at: new Date() } });
});

export const parked = new ParkedCronJob('0 * * * *', async () => {
  await db.draft.deleteMany({ where: { archived: true } });
});
