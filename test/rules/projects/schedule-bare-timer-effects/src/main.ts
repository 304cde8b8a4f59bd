import { closeExpiredCarts } from './carts/expire.js';
import { refreshExchangeRates } from './rates/refresh.js';

setInterval(closeExpiredCarts, 60_000);
setInterval(refreshExchangeRates, 5 * 60_000);
setInterval(() => void refreshExchangeRates(), 60 * 60_000);
