import { DataSource } from 'typeorm';

const source = new DataSource({ type: 'postgres', url: process.env.DATABASE_URL });
export const getManager = () => source.manager;
