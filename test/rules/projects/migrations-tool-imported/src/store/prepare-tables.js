const { Ticket, Booking } = require('./models');

async function prepareTables() {
  await Booking.sync({ alter: true });
  await Ticket.sync({ alter: true });
}

module.exports = prepareTables;
