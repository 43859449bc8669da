import { DataSource, MigrationInterface, QueryRunner } from 'typeorm';
import { buildDataSourceOptions } from '../../src/database/database-options';
import { MYSQL_MIGRATIONS } from '../../src/database/migrations/mysql';
import { runMigrationsUnderLock } from '../../src/database/run-migrations';
import { PrivateMariaDb } from '../helpers/private-mariadb';

type MigrationClass = new () => MigrationInterface;

function dataSourceFor(url: string, migrations: MigrationClass[] = MYSQL_MIGRATIONS): DataSource {
  return new DataSource({ ...buildDataSourceOptions({ type: 'mysql', url, poolSize: 2 }), migrations });
}

async function withDataSource<T>(url: string, work: (dataSource: DataSource) => Promise<T>, migrations?: MigrationClass[]): Promise<T> {
  const dataSource = await dataSourceFor(url, migrations).initialize();
  try {
    return await work(dataSource);
  } finally {
    await dataSource.destroy();
  }
}

/** The migration, with its statement number `step` (from 0, SELECTs it makes to look around included) made to fail. */
function failingAt(Migration: MigrationClass, step: number): MigrationClass {
  return class extends Migration {
    override async up(queryRunner: QueryRunner): Promise<void> {
      let statements = 0;
      const failing = Object.create(queryRunner) as QueryRunner;
      failing.query = (async (...args: Parameters<QueryRunner['query']>) => {
        if (statements++ === step) throw new Error(`statement ${step} made to fail`);
        return queryRunner.query(...args);
      }) as QueryRunner['query'];
      await super.up(failing);
    }
  };
}

/** Everything a migration can make in the database: tables and columns, indexes, triggers, routines, migrations run. */
async function schemaOf(dataSource: DataSource): Promise<unknown> {
  const query = (sql: string) => dataSource.query(sql);
  return {
    columns: await query(
      `SELECT table_name, column_name, column_type, is_nullable, column_default FROM information_schema.columns
       WHERE table_schema = DATABASE() ORDER BY table_name, ordinal_position`,
    ),
    indexes: await query(
      `SELECT table_name, index_name, column_name, seq_in_index, non_unique FROM information_schema.statistics
       WHERE table_schema = DATABASE() ORDER BY table_name, index_name, seq_in_index`,
    ),
    triggers: await query('SELECT trigger_name FROM information_schema.triggers WHERE trigger_schema = DATABASE()'),
    routines: await query('SELECT routine_name FROM information_schema.routines WHERE routine_schema = DATABASE()'),
    migrations: await query('SELECT name FROM typeorm_migrations ORDER BY id'),
  };
}

describe('Migrations on a MySQL with binary logging, as a user with only ALL PRIVILEGES on its database', () => {
  let server: PrivateMariaDb;
  let reference: unknown;

  beforeAll(async () => {
    server = await PrivateMariaDb.start();
  }, 60_000);
  afterAll(() => server?.stop());

  it('should migrate an empty database, and find nothing to do the second time', async () => {
    const url = await server.createDatabaseWithUser('registry_fresh');
    await withDataSource(url, async (dataSource) => {
      // The server is the kind that refuses what the migrations once did: a trigger, to this user.
      const [settings] = await dataSource.query<Array<{ logBin: unknown; trust: unknown }>>(
        'SELECT @@log_bin AS logBin, @@log_bin_trust_function_creators AS trust',
      );
      expect([Number(settings.logBin), Number(settings.trust)]).toEqual([1, 0]);
      await runMigrationsUnderLock(dataSource);
      await expect(dataSource.query('CREATE TRIGGER t BEFORE INSERT ON client FOR EACH ROW SET NEW.is_host = 0')).rejects.toThrow(
        /SUPER privilege and binary logging is enabled/,
      );
      reference = await schemaOf(dataSource);
      await runMigrationsUnderLock(dataSource);
      expect(await schemaOf(dataSource)).toEqual(reference);
    });
    expect(reference).toMatchObject({
      triggers: [],
      routines: [],
      migrations: MYSQL_MIGRATIONS.map((Migration) => ({ name: new Migration().name })),
    });
    expect(JSON.stringify(reference)).toContain('sms_config_count');
  }, 60_000);

  it('should stop with what to do when the earlier triggers exist and this user may not drop them, and go on once they are gone', async () => {
    const url = await server.createDatabaseWithUser('registry_triggers');
    await withDataSource(url, (dataSource) => runMigrationsUnderLock(dataSource));
    // As an administrator once did: the first version of 1795400000000 made its triggers with SUPER.
    await server.asRoot(async (root) => {
      await root.query('USE registry_triggers');
      await root.query('CREATE TRIGGER sms_config_within_limit BEFORE INSERT ON sms_config FOR EACH ROW SET NEW.is_active = NEW.is_active');
      await root.query('CREATE TRIGGER sms_config_count_on_delete AFTER DELETE ON sms_config FOR EACH ROW SET @deleted = OLD.id');
      // It and the migrations after it run again, in their order (each may run again).
      const names = MYSQL_MIGRATIONS.map((Migration) => new Migration().name);
      const rerun = names.slice(names.indexOf('SmsConfigLimitWithoutTrigger1795600000000'));
      await root.query(`DELETE FROM typeorm_migrations WHERE name IN (${rerun.map(() => '?').join(', ')})`, rerun);
    });
    await expect(withDataSource(url, (dataSource) => runMigrationsUnderLock(dataSource))).rejects.toThrow(
      'Trigger sms_config_within_limit must go, and this database user may not drop it while binary logging is on: run ' +
        '"DROP TRIGGER sms_config_within_limit; DROP TRIGGER sms_config_count_on_delete;" as the user who created them',
    );
    await server.asRoot(async (root) => {
      await root.query('USE registry_triggers');
      await root.query('DROP TRIGGER sms_config_within_limit');
      await root.query('DROP TRIGGER sms_config_count_on_delete');
    });
    await withDataSource(url, async (dataSource) => {
      await runMigrationsUnderLock(dataSource);
      expect(await schemaOf(dataSource)).toEqual(reference);
    });
  }, 60_000);

  it('should migrate again, to the same schema, after any statement of any migration failed', async () => {
    const failures: string[] = [];
    for (const [index, Migration] of MYSQL_MIGRATIONS.entries()) {
      for (let step = 0; ; step++) {
        const url = await server.createDatabaseWithUser(`registry_m${index}_s${step}`);
        const migrations = MYSQL_MIGRATIONS.map((each, i) => (i === index ? failingAt(Migration, step) : each));
        const failed = await withDataSource(url, (dataSource) => runMigrationsUnderLock(dataSource).then(() => false), migrations).catch(
          (error: Error) => {
            if (!error.message.includes('made to fail')) throw error;
            return true;
          },
        );
        // The migration has no statement number `step`: every one of its statements has been made to fail.
        if (!failed) break;
        failures.push(`${new Migration().name} at statement ${step}`);
        await withDataSource(url, async (dataSource) => {
          if (index === 0 && step === 1) {
            // A real half-done migration: its first table was made and stays (MySQL commits DDL at once).
            expect(await dataSource.query("SHOW TABLES LIKE 'client'")).toHaveLength(1);
          }
          await runMigrationsUnderLock(dataSource);
          expect(await schemaOf(dataSource)).toEqual(reference);
        });
      }
    }
    expect(failures.length).toBeGreaterThanOrEqual(8);
    process.stdout.write(`[migrations] run again after ${failures.length} failures: ${failures.join('; ')}\n`);
    // 116 databases migrated twice each: 59 s alone, 175 s beside the other suites on two cores.
  }, 360_000);
});
