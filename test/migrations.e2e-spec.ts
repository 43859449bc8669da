import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { DataSource } from 'typeorm';
import { loadAppConfig } from '../src/config/app-config';
import { buildDataSourceOptions } from '../src/database/database-options';
import { runMigrationsUnderLock } from '../src/database/run-migrations';
import { ADMIN_API_KEY, KEY_A, MYSQL_SERVER_URL, TEST_DATABASE_PREFIX } from './helpers/test-app';
import { createConnection } from 'mysql2/promise';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** MySQL went through a stored procedure before the limit's trigger; SQLite never had one. */
const MIGRATIONS = [
  'CreateClientAndSmsConfig1732240000000',
  ...(process.env.TEST_DATABASE === 'mysql' ? ['CreateSmsConfigAddProcedure1795327283819'] : []),
  'SmsConfigLimitByTrigger1795400000000',
];

/** A database nobody has touched yet. */
async function emptyDatabaseUrl(label: string): Promise<string> {
  if (process.env.TEST_DATABASE !== 'mysql') return `sqlite:${join(mkdtempSync(join(tmpdir(), 'registry-migrate-')), 'registry.sqlite')}`;
  const database = `${TEST_DATABASE_PREFIX}_${label}_${process.env.JEST_WORKER_ID ?? '0'}`;
  const connection = await createConnection(MYSQL_SERVER_URL);
  await connection.query(`DROP DATABASE IF EXISTS ${database}`);
  await connection.query(`CREATE DATABASE ${database}`);
  await connection.end();
  return `${MYSQL_SERVER_URL}/${database}`;
}

function dataSourceFor(databaseUrl: string): DataSource {
  const config = loadAppConfig({ DATABASE_URL: databaseUrl, ADMIN_API_KEYS: ADMIN_API_KEY, ENCRYPTION_KEYS: KEY_A });
  return new DataSource(buildDataSourceOptions(config.database));
}

async function tablesOf(dataSource: DataSource): Promise<string[]> {
  const sql =
    dataSource.options.type === 'mysql'
      ? 'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE()'
      : "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'";
  const rows = await dataSource.query<Array<{ name: string }>>(sql);
  return rows.map((row) => row.name).sort();
}

describe('Schema migrations', () => {
  it('should create the schema when several instances migrate the same empty database at once', async () => {
    const url = await emptyDatabaseUrl('migrate_race');
    const instances = [dataSourceFor(url), dataSourceFor(url), dataSourceFor(url)];
    await Promise.all(instances.map((instance) => instance.initialize()));
    try {
      await Promise.all(instances.map((instance) => runMigrationsUnderLock(instance)));
      expect(await tablesOf(instances[0])).toEqual(['client', 'sms_config', 'typeorm_migrations']);
      expect(await instances[0].query('SELECT name FROM typeorm_migrations ORDER BY id')).toEqual(MIGRATIONS.map((name) => ({ name })));
      expect(await instances[1].showMigrations()).toBe(false);
    } finally {
      await Promise.all(instances.map((instance) => instance.destroy()));
    }
  });

  it('should apply the same migrations through `npm run migration:run` (the TypeORM CLI and ormconfig.ts)', async () => {
    const url = await emptyDatabaseUrl('migrate_cli');
    const { stdout } = await promisify(execFile)('npm', ['run', 'migration:run'], {
      cwd: join(__dirname, '..'),
      env: { ...process.env, DATABASE_URL: url, ADMIN_API_KEYS: ADMIN_API_KEY, ENCRYPTION_KEYS: KEY_A },
    });
    for (const name of MIGRATIONS) expect(stdout).toContain(`${name} has been executed successfully`);
    const dataSource = await dataSourceFor(url).initialize();
    try {
      expect(await tablesOf(dataSource)).toEqual(['client', 'sms_config', 'typeorm_migrations']);
      expect(await dataSource.showMigrations()).toBe(false);
    } finally {
      await dataSource.destroy();
    }
  }, 60000);

  it('should count the configurations a client already had when the limit moved into the schema', async () => {
    const url = await emptyDatabaseUrl('migrate_limit');
    const options = dataSourceFor(url).options;
    const migrations = options.migrations as Array<new () => { name?: string }>;
    const before = new DataSource({
      ...options,
      migrations: migrations.filter((m) => new m().name !== 'SmsConfigLimitByTrigger1795400000000'),
    });
    await before.initialize();
    try {
      await before.runMigrations();
      await before.query(
        "INSERT INTO client (app_name, app_url, secret_key_digest, is_host) VALUES ('full', 'https://a.example.com', ?, 0)",
        ['f'.repeat(64)],
      );
      const [{ id }] = await before.query<Array<{ id: number }>>('SELECT id FROM client');
      for (let i = 0; i < 100; i++) {
        await before.query("INSERT INTO sms_config (client_id, provider_name, sms_api) VALUES (?, 'p', 'https://s.example.com')", [id]);
      }
    } finally {
      await before.destroy();
    }

    const after = await dataSourceFor(url).initialize();
    try {
      await after.runMigrations();
      const [{ id }] = await after.query<Array<{ id: number }>>('SELECT id FROM client');
      const addOne = () =>
        after.query("INSERT INTO sms_config (client_id, provider_name, sms_api) VALUES (?, 'p', 'https://s.example.com')", [id]);
      await expect(addOne()).rejects.toThrow('sms_config limit reached');
      // Deleting one makes room for exactly one.
      const [{ oldest }] = await after.query<Array<{ oldest: number }>>('SELECT MIN(id) AS oldest FROM sms_config');
      await after.query('DELETE FROM sms_config WHERE id = ?', [oldest]);
      await addOne();
      await expect(addOne()).rejects.toThrow('sms_config limit reached');
      const [{ n }] = await after.query<Array<{ n: number | string }>>('SELECT COUNT(*) AS n FROM sms_config');
      expect(Number(n)).toBe(100);
    } finally {
      await after.destroy();
    }
  }, 60000);
});
