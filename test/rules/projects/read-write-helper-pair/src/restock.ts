import { fetchShelf, updateShelf, updateShelfStamp } from './shelf.js';

export async function takeSlots(code: string, n: number): Promise<void> {
  const shelf = await fetchShelf(code);
  await updateShelf(code, { slots: shelf.slots - n });
}

export async function stampShelf(code: string, n: number): Promise<void> {
  const shelf = await fetchShelf(code);
  await updateShelfStamp(code, { slots: shelf.slots - n });
}
