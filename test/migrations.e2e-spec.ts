import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { DataSource } from 'typeorm';
import { loadAppConfig } from '../src/config/load-app-config';
import { buildDataSourceOptions } from '../src/database/database-options';
import { runMigrationsUnderLock } from '../src/database/run-migrations';
import { registryDataSource } from '../src/database/registry-data-source';
import { StatementTally } from '../src/database/statement-tally';
import { Transactions } from '../src/database/transactions';
import { WriteScripts } from '../src/database/write-scripts';
import { ENTITIES } from '../src/entities';
import { AuditLog } from '../src/audit/audit.repository';
import { DestinationPriceRepository } from '../src/sms-config/destination-price.repository';
import { SmsConfigBudgetRepository } from '../src/sms-config/sms-config-budget.repository';
import { NewSmsConfig } from '../src/sms-config/sms-config-fields';
import { SmsConfigRepository } from '../src/sms-config/sms-config.repository';
import { ADMIN_API_KEY, KEY_A, MYSQL_SERVER_URL, TEST_DATABASE_PREFIX } from './helpers/test-app';
import { createConnection } from 'mysql2/promise';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The migrations the dialect's DataSource options list, by name, in the order they run. */
function migrationNamesOf(options: DataSource['options']): string[] {
  return (options.migrations as Array<new () => { name?: string }>).map((migration) => new migration().name!);
}

/** Only MySQL has the relay's lock row: on SQLite one instance runs. */
const TABLES = [
  'audit_event',
  'change_sequence',
  'client',
  'client_key',
  'delivery_count',
  'deployment',
  'destination_price',
  'idempotent_request',
  ...(process.env.TEST_DATABASE === 'mysql' ? ['outbox_relay_lock'] : []),
  'provider_host',
  'pumping_baseline',
  'pumping_count',
  'pumping_range',
  'sms_config',
  'typeorm_migrations',
];

/** What the first version of migration 1795400000000 made (it needs SUPER on a MySQL with binary logging). */
const EARLIER_LIMIT_BY_TRIGGER =
  process.env.TEST_DATABASE === 'mysql'
    ? [
        'ALTER TABLE client ADD COLUMN sms_config_count INT NOT NULL DEFAULT 0',
        `CREATE TRIGGER sms_config_within_limit BEFORE INSERT ON sms_config FOR EACH ROW
         BEGIN
           UPDATE client SET sms_config_count = sms_config_count + 1 WHERE id = NEW.client_id AND sms_config_count < 100;
           IF ROW_COUNT() = 0 AND EXISTS (SELECT 1 FROM client WHERE id = NEW.client_id) THEN
             SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'sms_config limit reached';
           END IF;
         END`,
        `CREATE TRIGGER sms_config_count_on_delete AFTER DELETE ON sms_config FOR EACH ROW
           UPDATE client SET sms_config_count = sms_config_count - 1 WHERE id = OLD.client_id`,
      ]
    : [
        'ALTER TABLE client ADD COLUMN sms_config_count INTEGER NOT NULL DEFAULT 0',
        `CREATE TRIGGER sms_config_within_limit BEFORE INSERT ON sms_config
         BEGIN
           SELECT RAISE(ABORT, 'sms_config limit reached') FROM client WHERE id = NEW.client_id AND sms_config_count >= 100;
           UPDATE client SET sms_config_count = sms_config_count + 1 WHERE id = NEW.client_id;
         END`,
        `CREATE TRIGGER sms_config_count_on_delete AFTER DELETE ON sms_config
         BEGIN
           UPDATE client SET sms_config_count = sms_config_count - 1 WHERE id = OLD.client_id;
         END`,
      ];

const NEW_SMS_CONFIG: Omit<NewSmsConfig, 'clientId'> = {
  providerName: 'p',
  providerUrl: null,
  username: null,
  passwordSealed: null,
  apiKeySealed: null,
  senderId: null,
  smsType: null,
  smsApi: 'https://s.example.com',
  balanceUrl: null,
  balance: 0,
  perSmsCost: 0,
  isActive: true,
};

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

/** The repository as the service builds it, on the test's own data source. */
function smsConfigRepositoryOn(dataSource: DataSource, transactions: Transactions, scripts: WriteScripts): SmsConfigRepository {
  const prices = new DestinationPriceRepository(transactions, dataSource);
  const auditLog = new AuditLog(transactions, dataSource);
  const budget = new SmsConfigBudgetRepository(transactions, scripts, auditLog, dataSource);
  return new SmsConfigRepository(transactions, auditLog, prices, budget, dataSource);
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
      expect(await tablesOf(instances[0])).toEqual(TABLES);
      const migrations = migrationNamesOf(instances[0].options);
      expect(await instances[0].query('SELECT name FROM typeorm_migrations ORDER BY id')).toEqual(migrations.map((name) => ({ name })));
      expect(await instances[1].showMigrations()).toBe(false);
      // One identity for the deployment, however many instances ran the migration that makes it.
      expect(await instances[0].query('SELECT id FROM deployment')).toEqual([{ id: expect.stringMatching(/^[0-9a-f]{32}$/) }]);
    } finally {
      await Promise.all(instances.map((instance) => instance.destroy()));
    }
  });

  it('should give each database a deployment identity of its own, drawn at random rather than derived from where it is', async () => {
    const identities: string[] = [];
    for (const label of ['identity_one', 'identity_two']) {
      const dataSource = await dataSourceFor(await emptyDatabaseUrl(label)).initialize();
      try {
        await runMigrationsUnderLock(dataSource);
        const [{ id }] = await dataSource.query<Array<{ id: string }>>('SELECT id FROM deployment');
        identities.push(id);
      } finally {
        await dataSource.destroy();
      }
    }
    expect(identities[0]).not.toBe(identities[1]);
  });

  it('should apply the same migrations through `npm run migration:run` (the TypeORM CLI and ormconfig.ts)', async () => {
    const url = await emptyDatabaseUrl('migrate_cli');
    const { stdout } = await promisify(execFile)('npm', ['run', 'migration:run'], {
      cwd: join(__dirname, '..'),
      env: { ...process.env, DATABASE_URL: url, ADMIN_API_KEYS: ADMIN_API_KEY, ENCRYPTION_KEYS: KEY_A },
    });
    for (const name of migrationNamesOf(dataSourceFor(url).options)) expect(stdout).toContain(`${name} has been executed successfully`);
    const dataSource = await dataSourceFor(url).initialize();
    try {
      expect(await tablesOf(dataSource)).toEqual(TABLES);
      expect(await dataSource.showMigrations()).toBe(false);
    } finally {
      await dataSource.destroy();
    }
  }, 60000);

  it('should approve at upgrade the hosts the configurations present send to, those an admin could approve only, each audited once by system', async () => {
    const url = await emptyDatabaseUrl('migrate_hosts');
    const options = dataSourceFor(url).options;
    const migrations = options.migrations as Array<new () => { name?: string }>;
    const before = new DataSource({ ...options, migrations: migrations.filter((m) => Number(new m().name!.slice(-13)) < 1798000000004) });
    await before.initialize();
    try {
      await before.runMigrations();
      await before.query("INSERT INTO client (app_name, app_url, secret_key_digest, is_host) VALUES ('c', 'https://a.example.com', ?, 0)", [
        'f'.repeat(64),
      ]);
      const [{ id }] = await before.query<Array<{ id: number }>>('SELECT id FROM client');
      const configs: Array<[string, string | null, string | null]> = [
        ['https://API.Twilio.com/send', 'https://twilio.com', 'https://api.twilio.com./balance'],
        ['https://sms.provider.example:8443/send', null, null],
        ['https://8.8.8.8/send', null, 'https://[2606:4700:4700::1111]/b'],
        // Stored before the URL rule refused them, or naming hosts an admin could not approve: never approved.
        ['http://sms.thief.example\\@169.254.169.254/', null, null],
        ['http://10.0.0.1/send', 'http://localhost:8080', null],
        ['https://sms-intercept.evil.example.net/send', null, null],
      ];
      for (const [smsApi, providerUrl, balanceUrl] of configs) {
        await before.query(
          "INSERT INTO sms_config (client_id, provider_name, sms_api, provider_url, balance_url) VALUES (?, 'p', ?, ?, ?)",
          [id, smsApi, providerUrl, balanceUrl],
        );
      }
    } finally {
      await before.destroy();
    }

    const after = await registryDataSource({ ...dataSourceFor(url).options, entities: ENTITIES }).initialize();
    try {
      await after.runMigrations();
      const hosts = await after.query<Array<{ host: string; note: string }>>('SELECT host, note FROM provider_host ORDER BY host');
      const expected = [
        '2606:4700:4700::1111',
        '8.8.8.8',
        'api.twilio.com',
        'sms-intercept.evil.example.net',
        'sms.provider.example',
        'twilio.com',
      ];
      // The thief's host stored before the upgrade is among them: the runbook has the operator review every one.
      expect(hosts).toEqual(expected.map((host) => ({ host, note: 'present at upgrade' })));
      const entries = await after.query<Array<Record<string, unknown>>>(
        'SELECT action, actor, client_id, sms_config_id, request_id, changed, source_address, user_agent, details, unpublished FROM audit_event ORDER BY id',
      );
      // Made by the upgrade, not a request: no address, no user agent (and, written before details were, none).
      expect(entries.map((entry) => ({ ...entry, unpublished: Number(entry.unpublished) }))).toEqual(
        expected.map(() => ({
          action: 'provider-host.approved',
          actor: 'system',
          client_id: null,
          sms_config_id: null,
          request_id: null,
          changed: '["host","note"]',
          source_address: null,
          user_agent: null,
          details: null,
          unpublished: 1,
        })),
      );
    } finally {
      await after.destroy();
    }
  }, 60000);

  it('should fill the amounts’ exact twins from the DECIMAL columns, and serve the rows as they were', async () => {
    const url = await emptyDatabaseUrl('migrate_amounts');
    const options = dataSourceFor(url).options;
    const migrations = options.migrations as Array<new () => { name?: string }>;
    const before = new DataSource({ ...options, migrations: migrations.filter((m) => Number(new m().name!.slice(-13)) < 1798000000005) });
    await before.initialize();
    const amounts = [
      ['12.5', '0.000001', null],
      ['0', '1234567890.123456', '5'],
      ['-7.25', '0.1', '0.000001'],
    ];
    try {
      await before.runMigrations();
      await before.query("INSERT INTO client (app_name, app_url, secret_key_digest, is_host) VALUES ('c', 'https://a.example.com', ?, 0)", [
        'f'.repeat(64),
      ]);
      const [client] = await before.query<Array<{ id: number }>>('SELECT id FROM client');
      for (const [balance, perSmsCost, threshold] of amounts) {
        await before.query(
          "INSERT INTO sms_config (client_id, provider_name, sms_api, balance, per_sms_cost, low_balance_threshold) VALUES (?, 'p', 'https://s.example.com', ?, ?, ?)",
          [client.id, balance, perSmsCost, threshold],
        );
      }
    } finally {
      await before.destroy();
    }

    const after = await registryDataSource({ ...dataSourceFor(url).options, entities: ENTITIES }).initialize();
    const transactions = new Transactions(after, new StatementTally());
    const scripts = new WriteScripts(after, transactions, new StatementTally());
    try {
      await after.runMigrations();
      const text = after.options.type === 'mysql' ? 'CHAR' : 'TEXT';
      const twins = await after.query<Array<Record<string, string | null>>>(
        `SELECT CAST(balance_micros AS ${text}) AS b, CAST(per_sms_cost_micros AS ${text}) AS p, ` +
          `CAST(low_balance_threshold_micros AS ${text}) AS t FROM sms_config ORDER BY id`,
      );
      expect(twins).toEqual([
        { b: '12500000', p: '1', t: null },
        { b: '0', p: '1234567890123456', t: '5000000' },
        { b: '-7250000', p: '100000', t: '1' },
      ]);
      const repository = smsConfigRepositoryOn(after, transactions, scripts);
      const [client] = await after.query<Array<{ id: number }>>('SELECT id FROM client');
      const listed = await repository.listByClient(client.id);
      expect(listed.map(({ balance, perSmsCost }) => [balance, perSmsCost])).toEqual(amounts.map(([b, p]) => [Number(b), Number(p)]));
    } finally {
      await scripts.onApplicationShutdown();
      await after.destroy();
    }
  }, 60000);

  it('should remove the triggers of the earlier limit, count every client again, and keep the limit without them', async () => {
    const url = await emptyDatabaseUrl('migrate_limit');
    const options = dataSourceFor(url).options;
    const migrations = options.migrations as Array<new () => { name?: string }>;
    const laterOnes = ['SmsConfigLimitByTrigger1795400000000'];
    // The release of 1795400000000: every migration before it (a later one, run first, would be undone by the table
    // copies of TablesAsTypeormWritesThem1798000000000 on SQLite, which know only the columns of their time).
    const before = new DataSource({ ...options, migrations: migrations.filter((m) => Number(new m().name!.slice(-13)) < 1795400000000) });
    await before.initialize();
    try {
      // A database that ran the first version of 1795400000000, then gained 100 and 3 configurations.
      await before.runMigrations();
      for (const statement of EARLIER_LIMIT_BY_TRIGGER) await before.query(statement);
      await before.query('INSERT INTO typeorm_migrations (timestamp, name) VALUES (1795400000000, ?)', [laterOnes[0]]);
      for (const digest of ['f'.repeat(64), 'e'.repeat(64)]) {
        await before.query(
          "INSERT INTO client (app_name, app_url, secret_key_digest, is_host) VALUES ('c', 'https://a.example.com', ?, 0)",
          [digest],
        );
      }
      const [full, other] = await before.query<Array<{ id: number }>>('SELECT id FROM client ORDER BY id');
      for (const [client, count] of [
        [full.id, 100],
        [other.id, 3],
      ]) {
        for (let i = 0; i < count; i++) {
          await before.query("INSERT INTO sms_config (client_id, provider_name, sms_api) VALUES (?, 'p', 'https://s.example.com')", [
            client,
          ]);
        }
      }
      // A count gone wrong is put right by the migration.
      await before.query('UPDATE client SET sms_config_count = 50 WHERE id = ?', [other.id]);
    } finally {
      await before.destroy();
    }

    const after = await registryDataSource({ ...dataSourceFor(url).options, entities: ENTITIES }).initialize();
    const transactions = new Transactions(after, new StatementTally());
    const scripts = new WriteScripts(after, transactions, new StatementTally());
    try {
      await after.runMigrations();
      const triggers =
        after.options.type === 'mysql'
          ? 'SELECT trigger_name AS name FROM information_schema.triggers WHERE trigger_schema = DATABASE()'
          : "SELECT name FROM sqlite_master WHERE type = 'trigger'";
      expect(await after.query(triggers)).toEqual([]);
      const counts = await after.query<Array<{ n: number | string }>>('SELECT sms_config_count AS n FROM client ORDER BY id');
      expect(counts.map(({ n }) => Number(n))).toEqual([100, 3]);

      // The limit holds without the triggers: the repository keeps it.
      const repository = smsConfigRepositoryOn(after, transactions, scripts);
      const [full, other] = await after.query<Array<{ id: number }>>('SELECT id FROM client ORDER BY id');
      const add = (clientId: number) =>
        repository.add(
          { ...NEW_SMS_CONFIG, clientId },
          { actor: 'admin:00000000', requestId: 'migration-test', callerRequestId: null, sourceAddress: null, userAgent: null },
        );
      await expect(add(full.id)).rejects.toThrow('A client can have at most 100 SMS configurations');
      await expect(add(other.id)).resolves.toEqual(expect.any(Number));
      const rows = await after.query<Array<{ n: number | string }>>(
        'SELECT COUNT(*) AS n FROM sms_config GROUP BY client_id ORDER BY client_id',
      );
      expect(rows.map(({ n }) => Number(n))).toEqual([100, 4]);
    } finally {
      await scripts.onApplicationShutdown();
      await after.destroy();
    }
  }, 60000);
});
