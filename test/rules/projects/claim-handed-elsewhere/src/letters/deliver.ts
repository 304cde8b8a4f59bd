import { db, postal } from '../lib/db';

/** Posts one letter and marks it posted: no re-check of its state. */
export async function deliverLetter(letter: { id: string; address: string }) {
  await postal.send(letter.address);
  await db.letter.update({ where: { id: letter.id }, data: { status: 'POSTED' } });
}

/** Claims the letter first: the count of a conditional update decides. */
export async function deliverClaimed(letter: { id: string; address: string }) {
  const { count } = await db.letter.updateMany({ where: { id: letter.id, status: 'QUEUED' }, data: { status: 'POSTING' } });
  if (count === 0) return;
  await postal.send(letter.address);
  await db.letter.update({ where: { id: letter.id }, data: { status: 'POSTED' } });
}

/** Only notes the letter in a log of another table. */
export async function noteLetter(letter: { id: string }) {
  await db.postLog.create({ data: { letterId: letter.id } });
}
