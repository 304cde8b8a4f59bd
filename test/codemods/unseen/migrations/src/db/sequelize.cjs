'use strict';

const { Sequelize } = require('sequelize');
const defineModels = require('./models.cjs');

const sequelize = new Sequelize(process.env.DATABASE_URL, { logging: false });
defineModels(sequelize);

async function connect() {
  await sequelize.authenticate();
  await sequelize.sync({ alter: true });
  return sequelize;
}

module.exports = { sequelize, connect };
