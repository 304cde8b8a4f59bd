import { AppDataSource } from '../data-source';
import { Member } from './member.entity';

export async function awardPoints(memberId: number, points: number): Promise<void> {
  const members = AppDataSource.getRepository(Member);
  const member = await members.findOneByOrFail({ id: memberId });
  member.points += points;
  await members.save(member);
}
