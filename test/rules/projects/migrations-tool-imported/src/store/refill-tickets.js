const { Ticket, Booking } = require('./models');

async function refillTickets(count) {
  await Booking.sync({ force: true });
  await Ticket.sync({ force: true });
  for (let seat = 0; seat < count; seat++) await Ticket.create({ seat: `A${seat}` });
}

module.exports = refillTickets;
