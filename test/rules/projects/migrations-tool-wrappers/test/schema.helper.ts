import { revertLast } from '../src/db/schema';

export async function undoAfterEach(): Promise<void> {
  await revertLast();
}
