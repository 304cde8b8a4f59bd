const { Sequelize } = require('sequelize');

const sequelize = new Sequelize({ dialect: 'sqlite', storage: './pocket.sqlite', logging: false });

module.exports = { sequelize };
