import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadAppConfig } from './src/config/app-config';
import { loadDotEnv } from './src/config/dotenv';
import { buildDataSourceOptions } from './src/database/database-options';

/** The DataSource of the TypeORM CLI (`npm run migration:run`), built from the application's own options. */
loadDotEnv();
export default new DataSource(buildDataSourceOptions(loadAppConfig().database));
