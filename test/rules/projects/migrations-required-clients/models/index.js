const link = require('../store/link');
const Quiz = require('./quiz');
const Answer = require('./answer');

Quiz.hasMany(Answer, { foreignKey: 'quizId' });
Answer.belongsTo(Quiz, { foreignKey: 'quizId' });

async function prepareTables() {
  await link.sync();
  console.log('tables ready');
}

prepareTables();

module.exports = { Quiz, Answer };
