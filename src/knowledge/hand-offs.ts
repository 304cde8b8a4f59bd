// Methods that hand a value to something outside the function to act on — a message bus, a
// socket, a mailer, a queue (`pubsub.publish(topic, event)`, `io.emit('created', row)`,
// `mailer.send(mail)`, `queue.enqueue(job)`). Called with a row, awaited or not, they are work on it.

export const HAND_OFF_METHODS: ReadonlySet<string> = new Set([
  'publish',
  'emit',
  'send',
  'sendMessage',
  'sendMail',
  'dispatch',
  'produce',
  'notify',
  'enqueue',
  'deliver',
  'trigger',
]);
