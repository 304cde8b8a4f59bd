'use strict';

const cron = require('node-cron');
const { db } = require('../db.cjs');
const mailer = require('../mailer.cjs');

function start() {
  cron.schedule('*/15 * * * *', async () => {
    const due = await db('invoices').where('status', 'unpaid').andWhere('due_at', '<', new Date());
    for (const invoice of due) {
      await mailer.send(invoice.customer_email, 'invoice-reminder', { invoice });
    }
  });
}

module.exports = { start };
