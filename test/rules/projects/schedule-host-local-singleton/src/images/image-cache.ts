import { promises as fs } from 'node:fs';
import path from 'node:path';

const cacheRoot = process.env.DATA_DIR ? `${process.env.DATA_DIR}/cache/images` : path.join(process.cwd(), '.cache', 'images');
const uploadsRoot = path.join(process.env.SHARED_DIR ?? '/mnt/shared', 'uploads');

export class ImageCache {
  // Removes the expired renditions of one bucket of this host's image cache.
  static async clearExpired(bucket: string): Promise<number> {
    const bucketDir = path.join(cacheRoot, bucket);
    let removed = 0;
    for (const entry of await fs.readdir(bucketDir)) {
      const entryPath = path.join(bucketDir, entry);
      const stat = await fs.stat(entryPath);
      if (stat.isFile() && stat.mtimeMs < Date.now() - 86_400_000) {
        await fs.rm(entryPath, { force: true });
        removed += 1;
      }
    }
    return removed;
  }

  // Removes originals from the uploads directory on the shared mount, which every replica writes.
  static async clearOriginals(): Promise<void> {
    for (const entry of await fs.readdir(uploadsRoot)) await fs.unlink(path.join(uploadsRoot, entry));
  }
}
