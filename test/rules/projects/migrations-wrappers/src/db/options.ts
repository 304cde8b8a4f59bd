export default {
  type: process.env.DB_DRIVER as 'postgres',
  url: process.env.DATABASE_URL,
  synchronize: true,
};
