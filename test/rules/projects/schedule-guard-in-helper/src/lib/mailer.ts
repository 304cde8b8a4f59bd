import { db } from './db';

export const mailer = {
  async digestRecipients(): Promise<string[]> {
    const { rows } = await db.query<{ email: string }>('SELECT email FROM users WHERE digest = true');
    return rows.map((row) => row.email);
  },
  async sendDigest(email: string): Promise<void> {
    await fetch('https://mail.internal/send', { method: 'POST', body: JSON.stringify({ email, template: 'digest' }) });
  },
};
