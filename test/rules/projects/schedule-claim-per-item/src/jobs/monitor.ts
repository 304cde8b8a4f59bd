import { reportFailure } from '../telemetry.js';

export function monitored(name: string, run: () => Promise<void>) {
  return async () => {
    try {
      await run();
    } catch (error) {
      reportFailure(name, error);
    }
  };
}
