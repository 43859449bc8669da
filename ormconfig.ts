import 'reflect-metadata';
import { loadAppConfig } from './src/config/load-app-config';
import { loadDotEnv } from './src/config/dotenv';
import { buildDataSourceOptions } from './src/database/database-options';
import { registryDataSource } from './src/database/registry-data-source';
import { ENTITIES } from './src/entities';

/** The DataSource of the TypeORM CLI (`npm run migration:run`), built from the application's own options and entities. */
loadDotEnv();
export default registryDataSource(buildDataSourceOptions(loadAppConfig().database, ENTITIES));
