import { findItem, updateItemField } from './items.js';

export async function buy(id: string): Promise<void> {
  const item = await findItem(id);
  if (!item) throw new Error('no such item');
  await updateItemField(id, 'stock', item.stock - 1);
}

export async function relabel(id: string, label: string): Promise<void> {
  const item = await findItem(id);
  if (item.label !== label) await updateItemField(id, 'label', label);
}
