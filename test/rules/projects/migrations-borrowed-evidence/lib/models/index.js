'use strict';
const Sequelize = require('sequelize');

const sequelize = new Sequelize(process.env.DATABASE_URL, { logging: false });
const models = {};
models.Pad = sequelize.define('Pad', { title: Sequelize.STRING });
models.sequelize = sequelize;
module.exports = models;
