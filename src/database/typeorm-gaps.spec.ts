import { Column, DataSource, DataSourceOptions, Entity, PrimaryColumn } from 'typeorm';
import { Client } from '../client/client.entity';
import { ENTITIES } from '../entities';
import { SQLITE_MIGRATIONS } from './migrations/sqlite';
import { acceptMysqlTypesOnSqlite, metadataWithoutConnecting, readAsSqliteDeclaresIt } from './typeorm-gaps';

@Entity('kept')
class Kept {
  @PrimaryColumn({ name: 'code', type: 'char', length: 36 })
  code!: string;

  @Column({ name: 'text', type: 'mediumtext' })
  text!: string;
}

const SQLITE: DataSourceOptions = { type: 'better-sqlite3', database: ':memory:' };

/** A new SQLite database with every migration applied, opened with the service's entities. */
async function migratedSqlite(readAsSqlite: boolean): Promise<DataSource> {
  const dataSource = new DataSource({
    ...SQLITE,
    entities: ENTITIES,
    migrations: SQLITE_MIGRATIONS,
    migrationsTableName: 'typeorm_migrations',
  });
  acceptMysqlTypesOnSqlite(dataSource);
  await dataSource.initialize();
  if (readAsSqlite) readAsSqliteDeclaresIt(dataSource);
  await dataSource.runMigrations({ transaction: 'all' });
  return dataSource;
}

async function schemaChanges(dataSource: DataSource): Promise<string[]> {
  try {
    return (await dataSource.driver.createSchemaBuilder().log()).upQueries.map(({ query }) => query);
  } finally {
    await dataSource.destroy();
  }
}

describe('What TypeORM lacks (typeorm-gaps.ts)', () => {
  it('should open on SQLite the CHAR and MEDIUMTEXT columns of the entities only once told to accept them', async () => {
    await expect(new DataSource({ ...SQLITE, entities: [Kept] }).initialize()).rejects.toThrow(/Data type "char" .* is not supported/);
    const told = new DataSource({ ...SQLITE, entities: [Kept] });
    acceptMysqlTypesOnSqlite(told);
    await told.initialize();
    try {
      expect(told.getMetadata(Kept).columns.map((column) => [column.type, column.length])).toEqual([
        ['char', '36'],
        ['mediumtext', ''],
      ]);
    } finally {
      await told.destroy();
    }
  });

  it('should have the schema builder find the SQLite migrations’ tables as the entities say, once read as SQLite declares them', async () => {
    expect(await schemaChanges(await migratedSqlite(true))).toEqual([]);
    // Read as MySQL states them, TypeORM would rebuild the tables whose columns SQLite spells otherwise.
    expect((await schemaChanges(await migratedSqlite(false))).join('\n')).toMatch(/CREATE TABLE "temporary_audit_event"/);
  });

  it('should build MySQL’s metadata without a server', async () => {
    const dataSource = await metadataWithoutConnecting(new DataSource({ type: 'mysql', database: 'registry', entities: ENTITIES }));
    expect(dataSource.isInitialized).toBe(false);
    expect(dataSource.getMetadata(Client).findColumnWithPropertyName('createdAt')?.precision).toBe(6);
  });
});
