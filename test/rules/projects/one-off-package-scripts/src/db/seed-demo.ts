import { Product } from './models';

// Demo stock for a fresh database.
async function seedStock() {
  const product = await Product.findByPk(1);
  product.stock += 25;
  await product.save();
}

seedStock();
