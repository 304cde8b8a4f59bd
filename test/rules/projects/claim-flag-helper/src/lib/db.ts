import { PrismaClient } from '@prisma/client';
import pg from 'pg';

export const prisma = new PrismaClient();
export const pool = new pg.Pool();
