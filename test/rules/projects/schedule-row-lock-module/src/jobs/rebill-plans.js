const { Plan } = require('../models');

const rebillPlans = async () => {
  await Plan.update({ billed: false }, { where: { renewing: true } });
};

module.exports = rebillPlans;
