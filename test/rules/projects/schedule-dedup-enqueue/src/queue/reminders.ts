import { notifications } from './connection.js';

export async function enqueueReminders(): Promise<void> {
  await notifications.add('reminders', { at: Date.now() });
}
