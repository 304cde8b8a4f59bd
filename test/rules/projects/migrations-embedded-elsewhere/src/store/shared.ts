import { DataSource } from 'typeorm';

export const shared = new DataSource({ type: 'postgres', url: process.env.DATABASE_URL, migrations: ['dist/changes/*.js'] });
