// Distributed job queues. Work handed to one of them is coordinated by the queue, not by every
// replica's timer: a repeatable/cron job is scheduled once in the queue's store, and an enqueue
// that carries a deduplication id is dropped when another replica already enqueued it.

export interface QueueEntry {
  /** Package name, for messages and docs. */
  name: string;
  /** Modules the queue API is imported from. */
  modules: readonly string[];
  /** Methods that schedule a repeatable job inside the queue (coordinated by the queue itself). */
  schedulingMethods: readonly string[];
  /** Methods that enqueue one job; coordinated when an option in `dedupeOptions` is given. */
  enqueueMethods: readonly string[];
  /** Option names whose presence makes an enqueue idempotent across replicas. */
  dedupeOptions: readonly string[];
  /**
   * Where a job's handler sits; the queue hands each job to one handler, so the record a job names
   * is acted on once. `classDecorators` / `baseClasses` mark a class whose `handlerMethods` handle jobs
   * (NestJS `@Processor() … extends WorkerHost { process(job) }`), `methodDecorators` a method that
   * does (`@Process()`), `workerClasses` a class built with the handler (`new Worker(name, handler)`),
   * `registerMethods` a call given the handler (`queue.process(handler)`, `boss.work(name, handler)`).
   */
  handlers?: {
    classDecorators: readonly string[];
    baseClasses: readonly string[];
    handlerMethods: readonly string[];
    methodDecorators: readonly string[];
    workerClasses: readonly string[];
    registerMethods: readonly string[];
  };
}

export const QUEUES: readonly QueueEntry[] = [
  {
    name: 'BullMQ',
    modules: ['bullmq', '@nestjs/bullmq', 'bull', '@nestjs/bull'],
    schedulingMethods: ['upsertJobScheduler'],
    enqueueMethods: ['add', 'addBulk'],
    dedupeOptions: ['jobId', 'repeat', 'deduplication'],
    handlers: {
      classDecorators: ['Processor'],
      baseClasses: ['WorkerHost'],
      handlerMethods: ['process'],
      methodDecorators: ['Process'],
      workerClasses: ['Worker'],
      registerMethods: ['process'],
    },
  },
  {
    name: 'pg-boss',
    modules: ['pg-boss'],
    schedulingMethods: ['schedule'],
    enqueueMethods: ['send', 'sendOnce', 'sendSingleton', 'singletonSend', 'insert'],
    dedupeOptions: ['singletonKey', 'id'],
    handlers: {
      classDecorators: [],
      baseClasses: [],
      handlerMethods: [],
      methodDecorators: [],
      workerClasses: [],
      registerMethods: ['work'],
    },
  },
  {
    name: 'graphile-worker',
    modules: ['graphile-worker'],
    schedulingMethods: [],
    enqueueMethods: ['addJob', 'quickAddJob'],
    dedupeOptions: ['jobKey'],
  },
  {
    name: 'Agenda',
    modules: ['agenda', '@hokify/agenda'],
    schedulingMethods: ['every', 'schedule'],
    enqueueMethods: ['now', 'create'],
    dedupeOptions: ['unique'],
  },
];

/** Method names that enqueue without a dedupe key always need one (`sendOnce` is idempotent by itself). */
export const SELF_DEDUPLICATING_METHODS: readonly string[] = ['sendOnce', 'sendSingleton', 'singletonSend'];

/** Whether the file's imported modules include a distributed queue. */
export function queuesImported(importedModules: Iterable<string>): QueueEntry[] {
  const set = new Set(importedModules);
  return QUEUES.filter((q) => q.modules.some((m) => set.has(m)));
}
