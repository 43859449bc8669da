import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { Script } from 'node:vm';
import type { RowDataPacket } from 'mysql2';
import { createConnection } from 'mysql2/promise';
import * as typeorm from 'typeorm';
import { Column, DataSource, Entity, Index, JoinColumn, ManyToOne, MigrationInterface, PrimaryGeneratedColumn } from 'typeorm';
import { ModuleKind, transpileModule } from 'typescript';
import { GeneratedMigration, generateMigration, migrationSource } from '../scripts/migration-generate';
import { SCHEMA_MYSQL_SERVER_URL, withMigratedDatabase } from '../scripts/schema-databases';
import { EntityList } from '../src/database/database-options';
import * as sqliteSchemaProbes from '../src/database/migrations/sqlite/schema-probes';
import { schemaDrift } from '../src/database/schema-drift';
import { ENTITIES } from '../src/entities';
import { ProviderHost } from '../src/provider-host/provider-host.entity';
import { TEST_DATABASE_PREFIX } from './helpers/test-app';

/** provider_host with one more column, nullable, and an index on it. */
@Entity('provider_host')
@Index('IDX_provider_host_priority', ['priority'])
class ProviderHostWithPriority extends ProviderHost {
  @Column({ name: 'priority', type: 'int', nullable: true })
  priority!: number | null;
}

/** A table no migration makes, with an index and a key to a table that exists. */
@Entity('provider_host_note')
@Index('IDX_provider_host_note_host_id', ['hostId'])
class ProviderHostNote {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @Column({ name: 'host_id', type: 'int' })
  hostId!: number;

  @ManyToOne(() => ProviderHostWithPriority, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'host_id' })
  host!: ProviderHostWithPriority;

  @Column({ name: 'text', type: 'varchar', length: 200, nullable: true })
  text!: string | null;
}

/** provider_host with a column that rows already there cannot have: not an addition a previous release survives. */
@Entity('provider_host')
class ProviderHostWithWeight extends ProviderHost {
  @Column({ name: 'weight', type: 'int' })
  weight!: number;
}

/** An entity whose relation names one that is not registered: the DataSource cannot be opened. */
@Entity('unopenable')
class Unopenable {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @ManyToOne(() => ProviderHostNote)
  note!: ProviderHostNote;
}

const DIALECT = process.env.TEST_DATABASE === 'mysql' ? 'mysql' : 'sqlite';
const WITH_ADDITIONS: EntityList = [...ENTITIES.filter((entity) => entity !== ProviderHost), ProviderHostWithPriority, ProviderHostNote];
/** What a migration that only adds runs: TypeORM writes MySQL's so; SQLite's are the generator's own. */
const ONLY_ADDS = {
  sqlite: /^(ALTER TABLE "\w+" ADD COLUMN |CREATE TABLE IF NOT EXISTS |CREATE INDEX IF NOT EXISTS )/,
  mysql: /^(ALTER TABLE `\w+` ADD |CREATE TABLE |CREATE INDEX )/,
};
const CLASS_NAME = 'AddProviderHostPriority1900000000000';

/** Runs up() of a generated migration's source (TypeScript), as TypeORM would run the file. */
async function runUp(source: string, dataSource: DataSource): Promise<void> {
  const exports: Record<string, new () => MigrationInterface> = {};
  const modules: Record<string, unknown> = { typeorm, './schema-probes': sqliteSchemaProbes };
  const { outputText } = transpileModule(source, { compilerOptions: { module: ModuleKind.CommonJS } });
  new Script(`(function (require, exports) {\n${outputText}\n})`).runInThisContext()((id: string) => modules[id], exports);
  const queryRunner = dataSource.createQueryRunner();
  try {
    await new exports[CLASS_NAME]().up(queryRunner);
  } finally {
    await queryRunner.release();
  }
}

/** The scratch databases (MySQL) or folders (SQLite) of this process that are left. */
async function scratchDatabasesLeft(): Promise<string[]> {
  const prefix = `${TEST_DATABASE_PREFIX}_schema_${process.pid}_`;
  if (DIALECT === 'sqlite') return readdirSync(tmpdir()).filter((name) => name.startsWith(prefix));
  const connection = await createConnection(SCHEMA_MYSQL_SERVER_URL);
  try {
    const [rows] = await connection.query<RowDataPacket[]>('SHOW DATABASES LIKE ?', [`${prefix.replace(/_/g, '\\_')}%`]);
    return rows.map((row) => Object.values(row)[0] as string);
  } finally {
    await connection.end();
  }
}

describe('npm run migration:generate', () => {
  it('should write a migration that only adds when the entities add a column, an index and a table', async () => {
    const migration = (await withMigratedDatabase(DIALECT, generateMigration, WITH_ADDITIONS)) as GeneratedMigration;

    expect(migration.review).toBeUndefined();
    const statements = migration.up.map(({ query }) => query);
    for (const statement of statements) expect(statement).toMatch(ONLY_ADDS[DIALECT]);
    if (DIALECT === 'sqlite') {
      expect(statements).toEqual([
        'ALTER TABLE "provider_host" ADD COLUMN "priority" integer',
        'CREATE INDEX IF NOT EXISTS "IDX_provider_host_priority" ON "provider_host" ("priority")',
        expect.stringMatching(/^CREATE TABLE IF NOT EXISTS "provider_host_note" \(.*FOREIGN KEY \("host_id"\) REFERENCES "provider_host"/),
        'CREATE INDEX IF NOT EXISTS "IDX_provider_host_note_host_id" ON "provider_host_note" ("host_id")',
      ]);
    }

    const source = migrationSource(CLASS_NAME, migration);
    if (DIALECT === 'sqlite') expect(source).toContain(`await addColumn(queryRunner, 'provider_host', 'priority', 'integer');`);
    expect(source).not.toMatch(/temporary_|REVIEW/);
    const drift = await withMigratedDatabase(
      DIALECT,
      async (dataSource) => {
        await runUp(source, dataSource);
        // As the hand-written SQLite migrations, each step may run again after a failure.
        if (DIALECT === 'sqlite') await runUp(source, dataSource);
        return schemaDrift(dataSource);
      },
      WITH_ADDITIONS,
    );
    expect(drift).toEqual([]);
  });

  it("should keep TypeORM's statements and ask for a review when the entities do more than add", async () => {
    const entities = [...ENTITIES.filter((entity) => entity !== ProviderHost), ProviderHostWithWeight];
    const migration = (await withMigratedDatabase(DIALECT, generateMigration, entities)) as GeneratedMigration;

    expect(migration.review).toContain('a migration only adds (tables, nullable or defaulted columns, indexes)');
    if (DIALECT === 'sqlite')
      expect(migration.up.map(({ query }) => query)).toContainEqual(expect.stringMatching(/^CREATE TABLE "temporary_provider_host"/));
    expect(migrationSource(CLASS_NAME, migration)).toContain(`REVIEW: ${migration.review}`);
  });

  it('should find nothing to write when the entities and the migrations agree', async () => {
    expect(await withMigratedDatabase(DIALECT, generateMigration)).toBeUndefined();
  });

  it('should work on a scratch database of its own and remove it after, also when the run fails', async () => {
    const during = await withMigratedDatabase(DIALECT, scratchDatabasesLeft);
    await expect(withMigratedDatabase(DIALECT, () => Promise.reject(new Error('generation failed')))).rejects.toThrow('generation failed');
    await expect(withMigratedDatabase(DIALECT, generateMigration, [...ENTITIES, Unopenable])).rejects.toThrow(/Unopenable/);

    expect(during).toEqual([expect.stringMatching(new RegExp(`^${TEST_DATABASE_PREFIX}_schema_${process.pid}_[0-9a-f]{8}`))]);
    expect(await scratchDatabasesLeft()).toEqual([]);
  });
});
