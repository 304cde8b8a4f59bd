// The runtime entry: `import { claimPeriod } from 'replica-guard'`. Imports no tooling.
export * from './errors.js';
export type { LeaseStore } from './lease/store.js';
