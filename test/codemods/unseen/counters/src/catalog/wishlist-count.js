import { knex } from '../knex.js';

export async function addToWishlist(userId, productId) {
  await knex('wishlist_items').insert({ user_id: userId, product_id: productId });
  const product = await knex('products').where({ id: productId }).first('wishlist_count');
  await knex('products').where({ id: productId }).update({ wishlist_count: product.wishlist_count + 1 });
}
