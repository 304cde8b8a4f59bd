import mongoose from 'mongoose';

export const Shelf = mongoose.model('Shelf', new mongoose.Schema({ code: String, slots: Number, checkedAt: Date }));
