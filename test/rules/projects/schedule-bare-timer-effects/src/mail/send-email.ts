import { appendFile } from 'node:fs/promises';

// Hands the message to the delivery agent through its spool file.
export async function sendEmail(to: string, template: string): Promise<void> {
  await appendFile('/var/spool/app-mail/outgoing', `${JSON.stringify({ to, template })}\n`);
}
