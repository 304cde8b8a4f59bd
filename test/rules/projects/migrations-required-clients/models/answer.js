const { DataTypes } = require('sequelize');
const link = require('../store/link');

module.exports = link.define('answer', { text: DataTypes.STRING });
