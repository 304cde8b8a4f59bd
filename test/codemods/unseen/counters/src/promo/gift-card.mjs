import mongoose from 'mongoose';

const GiftCard = mongoose.model('GiftCard', new mongoose.Schema({ code: String, balance: Number }));

export async function chargeGiftCard(code, amount) {
  const card = await GiftCard.findOne({ code });
  if (card.balance < amount) {
    throw new Error('gift card balance too low');
  }
  await GiftCard.updateOne({ code }, { $set: { balance: card.balance - amount } });
}
