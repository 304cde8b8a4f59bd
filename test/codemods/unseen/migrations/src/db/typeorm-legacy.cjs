const { createConnection } = require('typeorm');

module.exports.connect = async function connect() {
  return createConnection({
    type: 'postgres',
    url: process.env.DATABASE_URL,
    entities: [__dirname + '/../entities/*.js'],
    synchronize: true,
    migrationsRun: true,
  });
};
