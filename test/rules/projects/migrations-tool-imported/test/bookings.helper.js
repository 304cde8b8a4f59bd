const wipeBookings = require('../src/store/wipe-bookings');

beforeEach(async () => {
  await wipeBookings();
});
