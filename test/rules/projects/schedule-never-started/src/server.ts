import { nightlyRollup, weeklyPrune } from './timers';

export function startServer(): void {
  nightlyRollup.start();
  // weeklyPrune.start(); — switched off until the audit export ships
  process.on('SIGTERM', () => {
    nightlyRollup.stop();
    weeklyPrune.stop();
  });
}
