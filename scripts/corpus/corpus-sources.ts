// The application corpus: open-source application servers (and the job/queue libraries they are
// built on) published on npm with their server code. Library code rarely schedules jobs, migrates
// schemas or claims rows; these do. Pinned to exact versions so every run reviews the same files.
// scripts/fetch-corpus.ts fetches them with `npm pack` (no dependencies, no install scripts).

export interface CorpusSource {
  name: string;
  version: string;
  /** What it is and why it is here: the patterns the rules look for. */
  why: string;
}

export const APP_CORPUS_SOURCES: readonly CorpusSource[] = [
  { name: 'ghost', version: '6.65.0', why: 'publishing server: knex migrations, scheduled posts, email batches' },
  { name: 'parse-server', version: '9.10.0', why: 'BaaS server: schema changes, push queues, counters' },
  { name: '@vendure/core', version: '3.7.3', why: 'commerce server (NestJS, TypeORM): job queue, scheduled tasks, stock counters' },
  { name: '@directus/api', version: '39.2.1', why: 'data platform API: knex migrations, schedules, flows' },
  { name: '@medusajs/medusa', version: '2.21.2', why: 'commerce server: API routes, jobs, subscribers' },
  { name: '@medusajs/framework', version: '2.21.2', why: 'commerce framework: job loader, migrations, MikroORM' },
  { name: 'n8n-core', version: '2.41.1', why: 'workflow engine core: triggers, polling, schedules' },
  { name: '@strapi/core', version: '5.54.0', why: 'CMS server: cron service, schema sync' },
  { name: '@strapi/database', version: '5.54.0', why: 'CMS database layer: knex schema sync and migrations' },
  { name: '@backstage/backend-defaults', version: '0.19.0', why: 'developer portal backend: scheduler, database manager, migrations' },
  { name: '@backstage/plugin-catalog-backend', version: '4.0.5', why: 'catalog processing loop: refresh state rows, stitching' },
  { name: 'payload', version: '3.90.2', why: 'CMS: jobs queue, autorun cron, migrations' },
  { name: '@keystone-6/core', version: '8.1.0', why: 'CMS: Prisma migrate / db push at start-up' },
  { name: '@actual-app/sync-server', version: '26.9.0', why: 'budget sync server: migrations, sync state' },
  { name: 'verdaccio', version: '6.10.4', why: 'npm registry server: timers, storage' },
  { name: '@node-red/runtime', version: '5.0.7', why: 'flow runtime: timers, storage' },
  { name: 'pg-boss', version: '12.38.0', why: 'Postgres job queue: maintenance timers, advisory locks, SKIP LOCKED' },
  { name: 'graphile-worker', version: '0.18.0', why: 'Postgres job queue: cron, migrations, job claiming' },
  { name: 'agenda', version: '6.2.6', why: 'MongoDB job scheduler: processing interval, job locking' },
  { name: '@nestjs/schedule', version: '12.0.2', why: 'NestJS scheduler: cron/interval registration' },
];

/**
 * Libraries the lint and codemod benchmarks add to the installed ones (test/bench/corpus.ts
 * `CORPUS_PACKAGES`): the framework, queue and ORM code a service's dependencies are made of,
 * as issue #9 names it (`@nestjs/*`, bullmq, rxjs, Prisma's client runtime) plus the two ORMs
 * the rules know that are not installed here.
 */
export const LIBRARY_CORPUS_SOURCES: readonly CorpusSource[] = [
  { name: '@nestjs/common', version: '12.5.1', why: 'framework: decorators, pipes, HTTP exceptions' },
  { name: '@nestjs/core', version: '12.5.1', why: 'framework: injector, router, lifecycle hooks' },
  { name: '@nestjs/typeorm', version: '12.0.2', why: 'TypeORM module: DataSource options (synchronize, migrationsRun)' },
  { name: '@nestjs/bullmq', version: '12.0.0', why: 'BullMQ module: processors, queue registration' },
  { name: 'bullmq', version: '6.7.6', why: 'Redis job queue: workers, schedulers, Lua scripts' },
  { name: 'rxjs', version: '7.8.2', why: 'reactive library: interval/timer operators, general code' },
  { name: '@prisma/client', version: '7.10.0', why: "Prisma's client runtime" },
  { name: 'mongoose', version: '9.12.2', why: 'MongoDB ODM: findOne/save/updateOne' },
  { name: 'sequelize', version: '6.37.8', why: 'SQL ORM: findByPk/increment/sync' },
];

/** `name@version`, the folder name in the cache. */
export const sourceId = (source: CorpusSource): string => `${source.name}@${source.version}`;
