const archiveDb = require('../store/mirror');

async function keepArchive() {
  await archiveDb.sync();
  console.log('archive kept');
}

keepArchive();

module.exports = { keepArchive };
