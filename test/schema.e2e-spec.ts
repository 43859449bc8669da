import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { Column, DataSource, Entity, Index, PrimaryColumn } from 'typeorm';
import { IdempotentRequest } from '../src/idempotency/idempotent-request.entity';
import { EntityList } from '../src/database/database-options';
import { SchemaDialect, migratedScratchDatabase, schemaDrift } from '../scripts/schema-drift';
import { ENTITIES } from '../src/entities';
import { MYSQL_SERVER_URL, TEST_DATABASE_PREFIX, TestApp, startTestApp } from './helpers/test-app';

/** src/idempotency/idempotent-request.entity.ts with one change: request_digest one character longer. */
@Entity('idempotent_request')
@Index('IDX_idempotent_request_expires_at', ['expiresAt'])
class IdempotentRequestWithLongerDigest {
  @PrimaryColumn({ name: 'scope', type: 'varchar', length: 80, charset: 'ascii' })
  scope!: string;

  @PrimaryColumn({ name: 'idempotency_key', type: 'varchar', length: 255, charset: 'ascii', collation: 'ascii_bin' })
  idempotencyKey!: string;

  @Column({ name: 'request_digest', type: 'char', length: 65, charset: 'ascii' })
  requestDigest!: string;

  @Column({ name: 'claim', type: 'char', length: 36, charset: 'ascii' })
  claim!: string;

  @Column({ name: 'claimed_until', type: 'datetime', precision: 3 })
  claimedUntil!: Date;

  @Column({ name: 'status_code', type: 'smallint', nullable: true })
  statusCode!: number | null;

  @Column({ name: 'answer_sealed', type: 'mediumtext', nullable: true })
  answerSealed!: string | null;

  @Column({ name: 'expires_at', type: 'datetime', precision: 3 })
  expiresAt!: Date;
}

/** A table no migration makes. */
@Entity('sms_config_priority')
class SmsConfigPriority {
  @Column({ name: 'sms_config_id', type: 'int', primary: true })
  smsConfigId!: number;
}

const DIALECT: SchemaDialect = process.env.TEST_DATABASE === 'mysql' ? 'mysql' : 'sqlite';

async function driftWith(entities: EntityList): Promise<string[]> {
  const name = `${TEST_DATABASE_PREFIX}_schema_${process.env.JEST_WORKER_ID ?? '0'}`;
  const dataSource: DataSource = await migratedScratchDatabase(DIALECT, entities, { mysqlServerUrl: MYSQL_SERVER_URL, name });
  try {
    return await schemaDrift(dataSource);
  } finally {
    await dataSource.destroy();
  }
}

async function emptyDatabase(): Promise<{ url: string; discard: () => Promise<void> }> {
  if (DIALECT === 'sqlite') {
    const directory = mkdtempSync(join(tmpdir(), 'registry-ormconfig-'));
    return {
      url: `sqlite:${join(directory, 'registry.sqlite')}`,
      discard: () => Promise.resolve(rmSync(directory, { recursive: true, force: true })),
    };
  }
  const name = `${TEST_DATABASE_PREFIX}_ormconfig_${process.env.JEST_WORKER_ID ?? '0'}`;
  const run = async (statement: string) => {
    const connection = await createConnection(MYSQL_SERVER_URL);
    const [rows] = await connection.query(statement).finally(() => connection.end());
    return rows as Array<Record<string, string>>;
  };
  await run(`DROP DATABASE IF EXISTS \`${name}\``);
  await run(`CREATE DATABASE \`${name}\``);
  // As the README tells an operator: a MariaDB server is named by a mariadb:// URL.
  const [{ version }] = await run('SELECT VERSION() AS version');
  const url = `${MYSQL_SERVER_URL.replace(/^mysql:/, /mariadb/i.test(version) ? 'mariadb:' : 'mysql:')}/${name}`;
  return { url, discard: async () => void (await run(`DROP DATABASE IF EXISTS \`${name}\``)) };
}

describe('The entities as the schema (npm run migration:check)', () => {
  it('should find nothing to change between the entities and what the migrations build', async () => {
    expect(await driftWith(ENTITIES)).toEqual([]);
  });

  it('should find the change when an entity declares a column the migrations made otherwise', async () => {
    const drift = await driftWith(ENTITIES.map((entity) => (entity === IdempotentRequest ? IdempotentRequestWithLongerDigest : entity)));
    expect(drift.length).toBeGreaterThan(0);
    expect(drift.join('\n')).toMatch(/request_digest.? char\(65\)/);
  });

  it('should find the change when an entity has no table yet', async () => {
    const drift = await driftWith([...ENTITIES, SmsConfigPriority]);
    expect(drift).toEqual([expect.stringMatching(/^CREATE TABLE .sms_config_priority./)]);
  });

  it("should have the TypeORM CLI's DataSource (ormconfig.ts) find nothing to change on a database the migrations built", async () => {
    const { url, discard } = await emptyDatabase();
    const previous = { ...process.env };
    let cli!: DataSource;
    try {
      process.env.DATABASE_URL = url;
      jest.isolateModules(() => {
        cli = jest.requireActual<{ default: DataSource }>('../ormconfig').default;
      });
      await cli.initialize();
      await cli.runMigrations();
      expect(await schemaDrift(cli)).toEqual([]);
    } finally {
      process.env = previous;
      if (cli?.isInitialized) await cli.destroy();
      await discard();
    }
  });

  describe('in the running service', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp();
    });
    afterAll(() => t.close());

    it('should register exactly the entities the schema scripts check', () => {
      const registered = t.dataSource.entityMetadatas.map((metadata) => metadata.target);
      expect(new Set(registered)).toEqual(new Set(ENTITIES));
    });
  });
});
