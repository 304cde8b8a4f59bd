import { lt } from 'drizzle-orm';
import { db } from '../db.js';
import { subscriptions, noticesSent } from '../schema.js';
import { mailer } from '../mailer.js';

// The marker is inserted, but its answer is never read: every replica sends.
export async function sendRenewalNotices() {
  const due = await db.select().from(subscriptions).where(lt(subscriptions.renewsAt, new Date()));
  for (const sub of due) {
    await db
      .insert(noticesSent)
      .values({ invoiceId: sub.id, kind: 'renewal' })
      .onConflictDoNothing({ target: [noticesSent.invoiceId, noticesSent.kind] })
      .returning();
    await mailer.sendRenewalNotice(sub.ownerEmail, sub.id);
  }
}
