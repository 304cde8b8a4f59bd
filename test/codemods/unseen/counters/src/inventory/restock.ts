import type { Knex } from 'knex';

export async function restock(db: Knex, warehouseId: string, sku: string, received: number): Promise<void> {
  const row = await db('stock_levels').where({ warehouse_id: warehouseId, sku }).first();
  await db('stock_levels')
    .where({ warehouse_id: warehouseId, sku })
    .update({ on_hand: row.on_hand + received });
}
