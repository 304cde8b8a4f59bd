import { db, postal } from './lib/db';
import { LetterStore } from './lib/letter-store';
import { deliverClaimed, deliverLetter, noteLetter } from './letters/deliver';

export async function postQueued() {
  const letters = await db.letter.findMany({ where: { status: 'QUEUED' }, take: 20 });
  for (const letter of letters) {
    await deliverLetter(letter);
  }
}

export async function postClaimed() {
  const letters = await db.letter.findMany({ where: { status: 'QUEUED' }, take: 20 });
  for (const letter of letters) {
    await deliverClaimed(letter);
  }
}

export async function noteQueued() {
  const letters = await db.letter.findMany({ where: { status: 'QUEUED' }, take: 20 });
  for (const letter of letters) {
    await noteLetter(letter);
  }
}

export class PostRoom {
  constructor(private readonly store: LetterStore) {}

  async run() {
    const letters = await this.store.queued();
    for (const letter of letters) {
      await postal.send(letter.address);
      await this.store.markPosted(letter.id);
    }
  }
}
