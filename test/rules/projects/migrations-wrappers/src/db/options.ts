export default {
  url: process.env.DATABASE_URL,
  entities: [],
  synchronize: true,
};
