import { db } from './db';

export class LetterStore {
  async queued() {
    return db.letter.findMany({ where: { status: 'QUEUED' }, take: 20 });
  }

  async markPosted(letterId: string) {
    await db.letter.update({ where: { id: letterId }, data: { status: 'POSTED', postedAt: new Date() } });
  }
}
