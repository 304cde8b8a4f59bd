import { prisma } from '../prisma';

export async function spendPoints(memberId: string, cost: number): Promise<void> {
  const member = await prisma.member.findUniqueOrThrow({ where: { id: memberId } });
  if (member.points < cost) throw new Error('not enough points');
  await prisma.member.update({ where: { id: memberId }, data: { points: member.points - cost } });
}
