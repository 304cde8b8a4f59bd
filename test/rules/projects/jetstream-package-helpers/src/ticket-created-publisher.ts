import { Publisher, Subjects, type TicketCreatedEvent } from '@acme/events-common';

// The base class, and its publish, live in the package.
export class TicketCreatedPublisher extends Publisher<TicketCreatedEvent> {
  readonly subject = Subjects.TicketCreated;
}
