import schedule from 'node-schedule';
import tracker from '../downloads/tracker.js';
import { ImageCache } from '../images/image-cache.js';

export function startJobs(): void {
  // Reads each server's queue into the tracker's own map: every replica keeps its own copy.
  schedule.scheduleJob('* * * * *', () => {
    tracker.trackTransfers();
  });
  // Empties the same map.
  schedule.scheduleJob('0 1 * * *', () => tracker.clearTransfers());
  // Sends a command to every server: a write, once per replica.
  schedule.scheduleJob('*/10 * * * *', () => tracker.retryStalled());
  // Hands the transfers to a package: what it does is not known.
  schedule.scheduleJob('*/15 * * * *', () => tracker.mirrorAll());
  // Deletes expired files under this host's cache directory.
  schedule.scheduleJob('0 3 * * *', async () => {
    console.info('clearing image cache');
    await ImageCache.clearExpired('posters');
    await ImageCache.clearExpired('avatars');
  });
  // Deletes files under the shared mount's uploads directory: not this host's own.
  schedule.scheduleJob('0 4 * * *', () => ImageCache.clearOriginals());
}
