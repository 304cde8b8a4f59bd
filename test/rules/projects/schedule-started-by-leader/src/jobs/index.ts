export { startReindex } from './reindex';
