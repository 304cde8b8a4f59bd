module.exports = { pool: null };
