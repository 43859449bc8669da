import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { RowDataPacket } from 'mysql2';
import { createConnection } from 'mysql2/promise';
import { DataSource } from 'typeorm';
import { DatabaseConfig } from '../src/config/app-config';
import { EntityList, buildDataSourceOptions } from '../src/database/database-options';
import { registryDataSource } from '../src/database/registry-data-source';
import { runMigrationsUnderLock } from '../src/database/run-migrations';

export type SchemaDialect = 'mysql' | 'sqlite';

export async function schemaDrift(dataSource: DataSource): Promise<string[]> {
  const log = await dataSource.driver.createSchemaBuilder().log();
  return log.upQueries.map((query) => query.query);
}

// Opened as mariadb on a MariaDB server: TypeORM's mysql dialect misreads MariaDB's column defaults.
export async function migratedScratchDatabase(
  dialect: SchemaDialect,
  entities: EntityList,
  { mysqlServerUrl, name }: { mysqlServerUrl: string; name: string },
): Promise<DataSource> {
  const database = dialect === 'sqlite' ? scratchSqlite(name) : await scratchMysql(mysqlServerUrl, name);
  const dataSource = registryDataSource(buildDataSourceOptions(database, entities));
  try {
    await dataSource.initialize();
    await runMigrationsUnderLock(dataSource);
    return dataSource;
  } catch (error) {
    await discardScratchDatabase(dataSource);
    throw error;
  }
}

export async function discardScratchDatabase(dataSource: DataSource): Promise<void> {
  if (dataSource.isInitialized) await dataSource.destroy();
  const { options } = dataSource;
  if (options.type === 'better-sqlite3') {
    rmSync(dirname(options.database), { recursive: true, force: true });
    return;
  }
  const url = new URL((options as { url: string }).url);
  const name = decodeURIComponent(url.pathname.slice(1));
  url.pathname = '/';
  const connection = await createConnection(url.toString());
  try {
    await connection.query(`DROP DATABASE IF EXISTS \`${name}\``);
  } finally {
    await connection.end();
  }
}

function scratchSqlite(name: string): DatabaseConfig {
  return { type: 'sqlite', path: join(mkdtempSync(join(tmpdir(), `${name}-`)), 'registry.sqlite') };
}

async function scratchMysql(serverUrl: string, name: string): Promise<DatabaseConfig> {
  const connection = await createConnection(serverUrl);
  try {
    await connection.query(`DROP DATABASE IF EXISTS \`${name}\``);
    await connection.query(`CREATE DATABASE \`${name}\``);
    const [[{ version }]] = await connection.query<Array<{ version: string } & RowDataPacket>>('SELECT VERSION() AS version');
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    return { type: /mariadb/i.test(version) ? 'mariadb' : 'mysql', url: url.toString(), poolSize: 2 };
  } finally {
    await connection.end();
  }
}
