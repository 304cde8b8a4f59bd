import { members } from './data.js';
import { memberFor } from './member-lookup.js';

export async function award(id: string, points: number): Promise<void> {
  const member = await memberFor(id);
  if (!member) return;
  await members.update({ id }, { points: member.points + points });
}
