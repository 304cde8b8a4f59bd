'use strict';

const { Pool } = require('pg');
const { deliver } = require('../webhooks/deliver.cjs');

const pool = new Pool({ connectionString: process.env.DATABASE_URL });

async function retryFailedWebhooks() {
  const { rows } = await pool.query('SELECT pg_try_advisory_lock(5150) AS ok');
  if (!rows[0].ok) return;
  try {
    const failed = await pool.query("SELECT id, url, body FROM webhook_deliveries WHERE status = 'failed' LIMIT 100");
    for (const delivery of failed.rows) {
      await deliver(delivery);
    }
  } finally {
    await pool.query('SELECT pg_advisory_unlock(5150)');
  }
}

module.exports = { retryFailedWebhooks };
