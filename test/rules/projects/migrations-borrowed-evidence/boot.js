'use strict';
// The models come through an alias only a run-time loader resolves, and a file that is not there;
// a receiver that shows nothing of Sequelize (`db.cache`) tells nothing.
const http = require('http');
const db = require('@models');
const archive = require('./lib/archive-models');
const search = require('./lib/search');
const User = require('./lib/user-model');

const server = http.createServer();

search.sequelize.sync();
archive.sequelize.sync();
db.cache.sync();
User.sync();
db.sequelize.sync().then(() => {
  server.listen(3000);
});
