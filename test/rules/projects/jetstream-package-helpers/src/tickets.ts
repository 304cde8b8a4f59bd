import { natsWrapper } from './nats-wrapper';
import { TicketCreatedPublisher } from './ticket-created-publisher';
import { AuditPublisher } from './audit-publisher';

export async function ticketCreated(ticket: { id: string; title: string; version: number }) {
  await new TicketCreatedPublisher(natsWrapper.js).publish({ id: ticket.id, title: ticket.title, version: ticket.version });
  await new AuditPublisher(natsWrapper.js).publish({ id: ticket.id, text: 'created' });
}
