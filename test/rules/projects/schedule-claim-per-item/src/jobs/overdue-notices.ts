import { and, eq, lt } from 'drizzle-orm';
import { db } from '../db.js';
import { invoices, noticesSent } from '../schema.js';
import { mailer } from '../mailer.js';

export async function sendOverdueNotices() {
  const due = await db.select().from(invoices).where(lt(invoices.dueAt, new Date()));
  for (const invoice of due) {
    const [claimed] = await db
      .insert(noticesSent)
      .values({ invoiceId: invoice.id, kind: 'overdue' })
      .onConflictDoNothing({ target: [noticesSent.invoiceId, noticesSent.kind] })
      .returning();
    if (!claimed) continue;
    await mailer.sendOverdueNotice(invoice.customerEmail, invoice.id);
  }
}
