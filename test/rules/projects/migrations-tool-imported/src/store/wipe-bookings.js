const { Booking } = require('./models');

async function wipeBookings() {
  await Booking.sync({ force: true });
}

module.exports = wipeBookings;
