import sql from '../postgres';

export async function releaseStock(productId: string, qty: number): Promise<void> {
  const [product] = await sql`select stock from products where id = ${productId}`;
  await sql`update products set stock = ${product.stock + qty} where id = ${productId}`;
}
