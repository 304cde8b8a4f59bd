import { Publisher, Subjects, type OrderCreatedEvent } from '@acme/events-common';

// The base class, and its publish, live in the package.
export class OrderCreatedPublisher extends Publisher<OrderCreatedEvent> {
  readonly subject = Subjects.OrderCreated;
}
