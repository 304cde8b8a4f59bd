const refillTickets = require('../src/store/refill-tickets');

async function main() {
  await refillTickets(500);
  console.log('refilled');
}

main().then(() => process.exit(0));
