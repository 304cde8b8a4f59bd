// Payment reminders: every sweep emails the customers whose invoice is overdue.
import { sendEmail } from '../mailer.js';
import { redis } from '../redis.js';

// Short so the demo and the end-to-end test see many sweeps; a real service sweeps every few minutes.
export const REMINDER_SWEEP_MS = Number(process.env.REMINDER_SWEEP_MS ?? 300);

export async function sendPaymentReminders() {
  const overdue = await redis.smembers('billing:overdue-customers');
  for (const customer of overdue.length > 0 ? overdue : ['customer-1']) {
    await sendEmail('payment-reminder', customer);
  }
}

export function startReminderSweep() {
  return setInterval(sendPaymentReminders, REMINDER_SWEEP_MS);
}
