'use strict';

const { sequelize, PageStat } = require('../models/index.cjs');

async function countHit(path) {
  const stat = await PageStat.findOne({ where: { path } });
  stat.hits += 1;
  await stat.save();
}

module.exports = { countHit, sequelize };
