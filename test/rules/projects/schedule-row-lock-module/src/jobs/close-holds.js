const { Hold, TaskGate, sequelize } = require('../models');

const closeHolds = async () => {
  const t = await sequelize.transaction();
  try {
    const gate = await TaskGate.findOne({ where: { name: 'close-holds', enabled: true }, transaction: t, lock: t.LOCK.UPDATE });
    if (!gate) {
      await t.commit();
      return;
    }
    await Hold.update({ state: 'closed' }, { where: { state: 'open' }, transaction: t });
    await t.commit();
  } catch (err) {
    await t.rollback();
  }
};

module.exports = closeHolds;
