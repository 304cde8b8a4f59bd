import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

const PRICE_REFRESH_INTERVAL = Number(process.env.PRICE_REFRESH_INTERVAL ?? 300_000);

export default fp(async function priceRefresh(fastify: FastifyInstance) {
  let timer: NodeJS.Timeout | undefined;

  fastify.addHook('onReady', async () => {
    timer = setInterval(async () => {
      try {
        const prices = await fastify.supplier.fetchPriceList();
        await fastify.pg.query('UPDATE products SET price = p.price FROM json_to_recordset($1) AS p(sku text, price numeric) WHERE products.sku = p.sku', [JSON.stringify(prices)]);
      } catch (error) {
        fastify.log.error({ err: error }, 'price refresh failed');
      }
    }, PRICE_REFRESH_INTERVAL);
  });

  fastify.addHook('onClose', async () => clearInterval(timer));
});
