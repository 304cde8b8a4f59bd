import { prisma } from '../prisma';

export async function redeemCoupon(code: string, orderId: string) {
  const coupon = await prisma.coupon.findUniqueOrThrow({ where: { code } });
  if (coupon.redemptions >= coupon.maxRedemptions) throw new Error('coupon fully redeemed');
  await prisma.coupon.update({ where: { code }, data: { redemptions: coupon.redemptions + 1 } });
  await prisma.order.update({ where: { id: orderId }, data: { couponCode: code } });
}
