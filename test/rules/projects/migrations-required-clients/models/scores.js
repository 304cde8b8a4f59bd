const mirror = require('../store/mirror');

async function keepCopy() {
  await mirror.sync();
  console.log('copy kept');
}

keepCopy();

module.exports = { keepCopy };
