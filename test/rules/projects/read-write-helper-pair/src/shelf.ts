import { Shelf } from './models.js';

export async function fetchShelf(code: string) {
  const shelf = await Shelf.findOne({ code });
  if (!shelf) throw new Error(`no shelf ${code}`);
  return shelf;
}

export async function updateShelf(code: string, values: object) {
  await Shelf.updateOne({ code }, values);
}

export async function updateShelfStamp(code: string, values: object) {
  await Shelf.updateOne({ code }, { $set: { checkedAt: new Date() } });
  return values;
}
