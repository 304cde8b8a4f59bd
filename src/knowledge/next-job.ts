// Names of a call working on the next job of a queue (`processNextJob`, `runNextTask`,
// `renderNextJob`): the queue hands each job to one consumer, so a worker loop making it runs on
// every replica by design — unless the verb plans the next job rather than taking it.

/** Verbs before `next` + a job word that plan or compute the next one (`scheduleNextJob`, `enqueueNextTask`) rather than take it. */
export const NEXT_PLANNING_VERBS: readonly string[] = [
  'schedule',
  'reschedule',
  'queue',
  'enqueue',
  'add',
  'create',
  'plan',
  'set',
  'compute',
  'calculate',
  'update',
  'insert',
  'push',
  'trigger',
  'start',
  'prepare',
];
