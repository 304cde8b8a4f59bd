import { members } from './data.js';
import { memberFor } from './member-lookup.js';

export async function greet(id: string): Promise<string> {
  const member = await memberFor(id);
  await members.update({ id }, { seenAt: new Date() });
  return `hello ${member?.id ?? 'guest'}`;
}
