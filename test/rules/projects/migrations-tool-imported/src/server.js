const http = require('node:http');
const prepareTables = require('./store/prepare-tables');

prepareTables().then(() => http.createServer((req, res) => res.end('ok')).listen(8080));
