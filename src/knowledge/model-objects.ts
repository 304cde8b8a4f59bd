// Data-access objects a service keeps on its application instance: a Fastify plugin decorates the
// instance with its models (`fastify.decorate('ordersModel', …)`, then `fastify.ordersModel.markPaid(id)`,
// `app.models.invoices.addLine(…)`). Their awaited methods read or write the service's database;
// one not named for a read (`getOpenOrders`, `checkBalance`, `countPending`) writes rows, whatever
// its verb (`addEntry`, `closeTicket`, `markPaid`). Plain data read by
// analysis/scheduled-work/model-object-write.ts.
import { READ_VERBS } from './host-local.js';

/** Words of a receiver's name that say it is a data-access object (`modelsInvoices`, `orderRepo`, `userDao`). */
export const MODEL_OBJECT_WORDS: readonly string[] = ['model', 'models', 'dao', 'daos', 'repo', 'repos', 'repository', 'repositories'];

/** First words of a data-access method that only read or compute (beside the host's read verbs). */
export const MODEL_READ_VERBS: readonly string[] = [
  ...READ_VERBS,
  'check',
  'is',
  'has',
  'select',
  'query',
  'calc',
  'calculate',
  'compute',
  'sum',
  'total',
  'validate',
  'verify',
  'to',
  'format',
  'parse',
  'build',
  'preload',
  'exist',
];
