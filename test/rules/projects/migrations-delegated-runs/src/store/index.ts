export * from './setup';
export * from './schema-run';
export * from './tx-run';
