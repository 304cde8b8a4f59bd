import { connect } from 'nats';

type InvoiceEvent = { invoiceId: string; kind: 'issued' | 'paid' };

export async function publishInvoiceEvents(events: InvoiceEvent[]): Promise<void> {
  const js = (await connect()).jetstream();
  await Promise.all(events.map((e) => js.publish(`invoices.${e.kind}`, JSON.stringify(e))));
}
