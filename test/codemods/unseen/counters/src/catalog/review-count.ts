import { prisma } from '../prisma';

export async function addReview(productId: string, rating: number, body: string) {
  await prisma.review.create({ data: { productId, rating, body } });
  const product = await prisma.product.findUniqueOrThrow({ where: { id: productId } });
  return prisma.product.update({
    where: { id: productId },
    data: { reviewCount: product.reviewCount + 1 },
  });
}
