import { members, type Member } from './data.js';

export async function memberFor(id: string): Promise<Member | null> {
  return members.findOneBy({ id });
}
