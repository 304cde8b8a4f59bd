import { DataSource } from 'typeorm';

// no script names it: whoever imports it (another package, a dynamic import) starts it
export const reportingSource = new DataSource({ type: 'postgres', url: process.env.REPORTING_URL, synchronize: true });
