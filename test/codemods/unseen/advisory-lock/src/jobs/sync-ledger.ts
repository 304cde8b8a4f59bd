import { sql } from '../postgres';
import { ledgerApi } from '../clients/ledger';

export async function syncLedger(): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`select pg_advisory_lock(5005)`;
    const cursor = await tx`select cursor from ledger_sync for update`;
    const page = await ledgerApi.entriesAfter(cursor[0]?.cursor);
    await tx`insert into ledger_entries ${tx(page.entries)}`;
    await tx`update ledger_sync set cursor = ${page.next}`;
    await tx`select pg_advisory_unlock(5005)`;
  });
}
