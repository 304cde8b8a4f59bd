import { closeExpiredCarts } from './carts/expire.js';
import { refreshExchangeRates } from './rates/refresh.js';
import { sendEmail } from './mail/send-email.js';

setInterval(closeExpiredCarts, 60_000);
setInterval(refreshExchangeRates, 5 * 60_000);
setInterval(() => void refreshExchangeRates(), 60 * 60_000);
setInterval(() => void sendEmail('ops@example.com', 'daily-digest'), 24 * 60 * 60_000);
