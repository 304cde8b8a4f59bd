import { claimPeriod } from 'replica-guard';
import { mailer } from '../lib/mailer';

export async function sendDigests(): Promise<void> {
  if (!(await claimPeriod('digests:daily', 24 * 60 * 60 * 1000))) return;
  const recipients = await mailer.digestRecipients();
  for (const recipient of recipients) await mailer.sendDigest(recipient);
}
