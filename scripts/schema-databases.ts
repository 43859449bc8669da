import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { EntityList } from '../src/database/database-options';
import { ENTITIES } from '../src/entities';
import { SchemaDialect, discardScratchDatabase, migratedScratchDatabase } from './schema-drift';

/** The MySQL or MariaDB server the schema scripts make their scratch databases on. */
export const SCHEMA_MYSQL_SERVER_URL = process.env.SCHEMA_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306';

/** Both dialects, or the one named by `--dialect mysql|sqlite`. */
export function dialectsAsked(): SchemaDialect[] {
  const index = process.argv.indexOf('--dialect');
  if (index === -1) return ['mysql', 'sqlite'];
  const dialect = process.argv[index + 1];
  if (dialect !== 'mysql' && dialect !== 'sqlite') throw new Error('--dialect must be mysql or sqlite');
  return [dialect];
}

/**
 * Runs `use` on a new database of the dialect with every migration applied, opened with the entities (the service's
 * unless given), then removes it, whether `use` succeeded or not. Its MySQL name is this run's own,
 * `<TEST_DATABASE_PREFIX or registry>_schema_<pid>_<random>`, so that runs side by side never share one.
 */
export async function withMigratedDatabase<T>(
  dialect: SchemaDialect,
  use: (dataSource: DataSource) => Promise<T>,
  entities: EntityList = ENTITIES,
): Promise<T> {
  const name = `${process.env.TEST_DATABASE_PREFIX ?? 'registry'}_schema_${process.pid}_${randomBytes(4).toString('hex')}`;
  const dataSource = await migratedScratchDatabase(dialect, entities, { mysqlServerUrl: SCHEMA_MYSQL_SERVER_URL, name });
  try {
    return await use(dataSource);
  } finally {
    await discardScratchDatabase(dataSource);
  }
}
