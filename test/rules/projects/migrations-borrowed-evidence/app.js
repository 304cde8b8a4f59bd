'use strict';
const http = require('http');
const models = require('./lib/models');
const search = require('./lib/search');

const server = http.createServer();

search.sequelize.sync();
models.sequelize.sync().then(() => {
  server.listen(3000);
});
