const { Sequelize, DataTypes } = require('sequelize');

const sequelize = new Sequelize(process.env.TICKETS_URL);
const Ticket = sequelize.define('ticket', { seat: DataTypes.STRING });
const Booking = sequelize.define('booking', { ticketId: DataTypes.INTEGER });

module.exports = { sequelize, Ticket, Booking };
