import { Product } from '../models/product.js';

export async function reserveStock(sku, quantity) {
  const product = await Product.findOne({ sku });
  if (!product) throw new Error(`unknown sku ${sku}`);
  await Product.updateOne({ sku }, { $set: { available: product.available - quantity } });
}
