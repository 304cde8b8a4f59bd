import { DataSource, type DataSourceOptions } from 'typeorm';

const onDisk: DataSourceOptions = {
  type: 'better-sqlite3',
  database: `${process.env.DATA_DIR ?? 'data'}/tracker.sqlite`,
  migrations: ['dist/store/changes/*.js'],
};

const store = new DataSource(onDisk);
export default store;
