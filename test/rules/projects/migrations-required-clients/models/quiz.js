const { DataTypes } = require('sequelize');
const link = require('../store/link');

module.exports = link.define('quiz', { title: DataTypes.STRING });
