import { reconcilePayments } from '../payments/reconcile.js';
import { logger } from '../logger.js';

const RECONCILE_EVERY_MS = 10 * 60 * 1000;

export function startReconciler() {
  return setInterval(() => void reconcilePayments().catch((err) => logger.error(err)), RECONCILE_EVERY_MS);
}
