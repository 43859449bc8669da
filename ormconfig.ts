import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadAppConfig } from './src/config/app-config';
import { buildDataSourceOptions } from './src/database/database-options';

/** The DataSource of the TypeORM CLI (`npm run migration:run`), built from the application's own options. */
export default new DataSource(buildDataSourceOptions(loadAppConfig().database));
