// Cron services a framework keeps on its application object. Strapi's `strapi.cron.add({ … })`
// (called in `bootstrap`, or in a plugin's) registers node-schedule jobs in the process that runs
// it: every instance of the app runs every job. A job is a property of the object handed in —
// `'*/5 * * * *': async ({ strapi }) => { … }` (the key is the rule), or `nightlyDigest: { task,
// options: { rule, tz } }`. Plain data read by analysis/scheduled-work/framework-crons.ts.
import type { SchedulerEntry } from './schedulers.js';

export interface FrameworkCron {
  /** The application object's names (`strapi`, `this.strapi`, `app.strapi`). */
  receivers: readonly string[];
  /** Its cron service property and the method that registers jobs. */
  service: string;
  method: string;
  /** A job given as an object: its work, its options and, in them, the rule and the time zone. */
  taskOption: string;
  optionsOption: string;
  ruleOption: string;
  timeZoneOption: string;
  entry: SchedulerEntry;
}

export const FRAMEWORK_CRONS: readonly FrameworkCron[] = [
  {
    receivers: ['strapi'],
    service: 'cron',
    method: 'add',
    taskOption: 'task',
    optionsOption: 'options',
    ruleOption: 'rule',
    timeZoneOption: 'tz',
    entry: { id: 'strapi.cron.add', modules: [], path: [], kind: 'call', work: [], schedule: [] },
  },
];

/** The text a registration writes out (`.cron.add(`, `.cron\n  .add(`), for the rule's text pre-check. */
export const FRAMEWORK_CRON_CALL = /\.\s*cron\s*\.\s*add\s*\(/;
