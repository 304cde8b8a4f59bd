const fs = require('fs');

module.exports = {
  sync() {
    fs.copyFileSync('./scores.json', './scores.backup.json');
  },
};
