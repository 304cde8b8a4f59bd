const { sequelize } = require('../store/pocket.js');

module.exports = {
  name: 'connected',
  once: true,
  async execute(client) {
    await sequelize.sync();
    console.log(`online as ${client.user.tag}`);
  },
};
