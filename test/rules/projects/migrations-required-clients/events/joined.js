const { sequelize } = require('../store/hub.js');

module.exports = {
  name: 'joined',
  once: true,
  async execute(client) {
    await sequelize.sync();
    console.log(`joined as ${client.user.tag}`);
  },
};
