const { Sequelize } = require('sequelize');

module.exports = new Sequelize(process.env.LINK_URL, { dialect: 'postgres', logging: false });
