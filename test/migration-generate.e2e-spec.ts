import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { Script } from 'node:vm';
import type { RowDataPacket } from 'mysql2';
import { createConnection } from 'mysql2/promise';
import * as typeorm from 'typeorm';
import { Column, DataSource, Entity, Index, JoinColumn, ManyToOne, MigrationInterface, PrimaryGeneratedColumn, Relation } from 'typeorm';
import { ModuleKind, transpileModule } from 'typescript';
import { GeneratedMigration, generateMigration, migrationSource, writeMigration } from '../scripts/migration-generate';
import { migrationsFolder, migrationsIn } from '../scripts/migration-index';
import { SCHEMA_MYSQL_SERVER_URL, withMigratedDatabase } from '../scripts/schema-databases';
import { EntityList } from '../src/database/database-options';
import { MYSQL_MIGRATIONS } from '../src/database/migrations/mysql';
import { SQLITE_MIGRATIONS } from '../src/database/migrations/sqlite';
import * as mysqlSchemaProbes from '../src/database/migrations/mysql/schema-probes';
import * as sqliteSchemaProbes from '../src/database/migrations/sqlite/schema-probes';
import { schemaDrift } from '../scripts/schema-drift';
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

/** A new table whose key names another new one, declared (so listed by TypeORM) before it. */
@Entity('provider_host_note_tag')
class ProviderHostNoteTag {
  @PrimaryGeneratedColumn({ type: 'int' })
  id!: number;

  @ManyToOne(() => ProviderHostNote, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'note_id' })
  note!: Relation<ProviderHostNote>;
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
const OTHER_DIALECT = DIALECT === 'mysql' ? 'sqlite' : 'mysql';
const WITH_ADDITIONS: EntityList = [...ENTITIES.filter((entity) => entity !== ProviderHost), ProviderHostWithPriority, ProviderHostNote];
/** What a migration that only adds runs; MySQL's CREATE INDEX is written behind indexExists(). */
const ONLY_ADDS = {
  sqlite: /^(ALTER TABLE "\w+" ADD COLUMN |CREATE TABLE IF NOT EXISTS |CREATE INDEX IF NOT EXISTS )/,
  mysql: /^(ALTER TABLE `\w+` ADD COLUMN |CREATE TABLE IF NOT EXISTS |CREATE INDEX )/,
};
const CLASS_NAME = 'AddProviderHostPriority1900000000000';

/** Runs up() of a generated migration's source (TypeScript), as TypeORM would run the file. */
async function runUp(source: string, dataSource: DataSource): Promise<void> {
  const exports: Record<string, new () => MigrationInterface> = {};
  const modules: Record<string, unknown> = { typeorm, './schema-probes': DIALECT === 'mysql' ? mysqlSchemaProbes : sqliteSchemaProbes };
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
    } else {
      expect(statements).toEqual([
        'ALTER TABLE `provider_host` ADD COLUMN `priority` int NULL',
        'CREATE INDEX `IDX_provider_host_priority` ON `provider_host` (`priority`)',
        expect.stringMatching(
          /^CREATE TABLE IF NOT EXISTS `provider_host_note` \(.*INDEX `IDX_provider_host_note_host_id` \(`host_id`\).*FOREIGN KEY \(`host_id`\) REFERENCES `provider_host`/,
        ),
      ]);
      expect(migration.down.map(({ query }) => query)).toEqual([
        'DROP TABLE `provider_host_note`',
        'DROP INDEX `IDX_provider_host_priority` ON `provider_host`',
        'ALTER TABLE `provider_host` DROP COLUMN `priority`',
      ]);
    }

    expect(migration.summary).toBe(
      'Adds provider_host.priority (nullable int), the index IDX_provider_host_priority on provider_host (priority) and the table provider_host_note',
    );
    const source = migrationSource(CLASS_NAME, migration);
    expect(source).toContain(`\n/** ${migration.summary}. Generated from the entities by npm run migration:generate. */\nexport class`);
    if (DIALECT === 'sqlite') expect(source).toContain(`await addColumn(queryRunner, 'provider_host', 'priority', 'integer');`);
    if (DIALECT === 'mysql') {
      expect(source).toContain("import { addColumn, indexExists } from './schema-probes';");
      expect(source).toContain(`await addColumn(queryRunner, 'provider_host', 'priority', 'int NULL');`);
      expect(source).toContain(
        "    if (!(await indexExists(queryRunner, 'provider_host', 'IDX_provider_host_priority'))) {\n" +
          "      await queryRunner.query('CREATE INDEX `IDX_provider_host_priority` ON `provider_host` (`priority`)');\n    }",
      );
    }
    expect(source).not.toMatch(/temporary_|REVIEW|ALTER TABLE \S+ ADD/);
    const drift = await withMigratedDatabase(
      DIALECT,
      async (dataSource) => {
        await runUp(source, dataSource);
        // As the hand-written migrations, each step may run again after a failure.
        await runUp(source, dataSource);
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
    const typeormStatement = {
      sqlite: /^CREATE TABLE "temporary_provider_host"/,
      mysql: /^ALTER TABLE `provider_host` ADD `weight` int NOT NULL/,
    };
    expect(migration.up.map(({ query }) => query)).toContainEqual(expect.stringMatching(typeormStatement[DIALECT]));
    expect(migration.summary).toBe('Changes provider_host');
    expect(migrationSource(CLASS_NAME, migration)).toContain(
      `/** Changes provider_host. Generated from the entities by npm run migration:generate. REVIEW: ${migration.review}.`,
    );
  });

  it('should make a new table after the new tables it references', async () => {
    const migration = (await withMigratedDatabase(DIALECT, generateMigration, [
      ProviderHostNoteTag,
      ...WITH_ADDITIONS,
    ])) as GeneratedMigration;

    expect(migration.review).toBeUndefined();
    const created = migration.up.map(({ query }) => /^CREATE TABLE IF NOT EXISTS [`"](\w+)/.exec(query)?.[1]).filter(Boolean);
    expect(created).toEqual(['provider_host_note', 'provider_host_note_tag']);
  });

  it("should write a name's migration of each dialect under one timestamp, one dialect at a time, and list each in its index", async () => {
    const root = mkdtempSync(join(tmpdir(), `${TEST_DATABASE_PREFIX}-migrations-`));
    try {
      const folders = { mysql: join(root, 'mysql'), sqlite: join(root, 'sqlite') };
      for (const folder of Object.values(folders)) {
        mkdirSync(folder);
        writeFileSync(join(folder, '1798000000014-RemoveAddedNeverPublicHosts.ts'), '');
        writeFileSync(join(folder, 'schema-probes.ts'), '');
      }
      // One migration of the other dialect dated ahead: the new one runs after it, in both dialects.
      writeFileSync(join(folders[OTHER_DIALECT], '4102444800000-DatedAhead.ts'), '');
      const migration: GeneratedMigration = { up: [], down: [], summary: 'Adds sms_config.notes (nullable varchar(500))' };
      const unformatted = (_path: string, text: string) => Promise.resolve(text);

      const first = await writeMigration('SmsConfigNotes', migration, folders[DIALECT], folders[OTHER_DIALECT], unformatted);
      const second = await writeMigration('SmsConfigNotes', migration, folders[OTHER_DIALECT], folders[DIALECT], unformatted);

      expect(basename(first)).toBe('4102444800001-SmsConfigNotes.ts');
      expect(basename(second)).toBe('4102444800001-SmsConfigNotes.ts');
      expect(readFileSync(first, 'utf8')).toContain('export class SmsConfigNotes4102444800001 implements MigrationInterface');
      const indexOf = (dialect: 'mysql' | 'sqlite') => readFileSync(join(folders[dialect], 'index.ts'), 'utf8');
      expect(indexOf(DIALECT)).toContain(
        `export const ${DIALECT.toUpperCase()}_MIGRATIONS = [\n  RemoveAddedNeverPublicHosts1798000000014,\n  SmsConfigNotes4102444800001,\n];`,
      );
      expect(indexOf(OTHER_DIALECT)).toContain(
        `export const ${OTHER_DIALECT.toUpperCase()}_MIGRATIONS = [\n  RemoveAddedNeverPublicHosts1798000000014,\n  DatedAhead4102444800000,\n  SmsConfigNotes4102444800001,\n];`,
      );
      expect(indexOf(DIALECT)).toContain("import { SmsConfigNotes4102444800001 } from './4102444800001-SmsConfigNotes';");
      // Never written over: a dialect that has a migration of the name refuses another.
      await expect(writeMigration('SmsConfigNotes', migration, folders[DIALECT], folders[OTHER_DIALECT], unformatted)).rejects.toThrow(
        `${DIALECT}/4102444800001-SmsConfigNotes.ts exists`,
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("should list in each dialect's index every migration of its folder, in timestamp order", () => {
    for (const [dialect, listed] of [
      ['mysql', MYSQL_MIGRATIONS],
      ['sqlite', SQLITE_MIGRATIONS],
    ] as const) {
      expect(listed.map((migration) => migration.name)).toEqual(migrationsIn(migrationsFolder(dialect)).map(({ className }) => className));
    }
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
