import { DataSource } from 'typeorm';
import { ENTITIES } from '../src/entities';
import { SchemaDialect, migratedScratchDatabase } from '../src/database/schema-drift';

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

/** Runs `use` on a new database of the dialect with every migration applied, opened with the service's entities. */
export async function withMigratedDatabase<T>(dialect: SchemaDialect, use: (dataSource: DataSource) => Promise<T>): Promise<T> {
  const dataSource = await migratedScratchDatabase(dialect, ENTITIES, {
    mysqlServerUrl: SCHEMA_MYSQL_SERVER_URL,
    name: `${process.env.TEST_DATABASE_PREFIX ?? 'registry'}_schema`,
  });
  try {
    return await use(dataSource);
  } finally {
    await dataSource.destroy();
  }
}
