import schedule from 'node-schedule';
import { digestMailer } from '../mail/digest';
import { subscribers } from '../subscribers';

async function sendWeeklyDigest(): Promise<void> {
  const list = await subscribers.activeWithDigest();
  for (const subscriber of list) {
    await digestMailer.send(subscriber);
  }
}

export function scheduleDigest(): void {
  schedule.scheduleJob('weekly-digest', '0 8 * * 1', sendWeeklyDigest);
}
