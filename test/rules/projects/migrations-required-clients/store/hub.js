const { Sequelize } = require('sequelize');

const sequelize = new Sequelize(process.env.HUB_DB, process.env.HUB_USER, process.env.HUB_PASSWORD, {
  host: process.env.HUB_HOST,
  dialect: 'mysql',
});

module.exports = { sequelize };
