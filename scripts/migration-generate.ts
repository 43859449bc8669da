/**
 * `npm run migration:generate -- <Name>`: writes, for each dialect, the migration that takes a database built by the
 * existing migrations to what the entities say (TypeORM's schema builder on a new, migrated database), as
 * src/database/migrations/<dialect>/<timestamp>-<Name>.ts, formatted, and writes the folder's index.ts again
 * (scripts/migration-index.ts). Both dialects' migrations of a name have one timestamp, also when written one at a time.
 * Its doc comment says what it adds, from the steps it holds; why is the commit's to say. When the entities only add
 * (tables, columns, indexes), each is written as the hand-written ones are, each step able to run again: `addColumn()`
 * of its schema-probes.ts, `CREATE TABLE IF NOT EXISTS`, an index made unless it exists; not TypeORM's copy of an
 * SQLite table. Anything else keeps TypeORM's statements and is reported for review: a migration only adds.
 * `--dialect mysql|sqlite` writes one.
 */
import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { DataSource, EntityMetadata, QueryRunner, Table, TableColumn, TableForeignKey } from 'typeorm';
import { formatted, migrationsFolder, migrationsIn, writeMigrationIndex } from './migration-index';
import { dialectsAsked, withMigratedDatabase } from './schema-databases';
import { runScript } from './script-io';

/** A statement of a migration, as TypeORM's schema builder writes one. */
export interface Query {
  query: string;
  parameters?: unknown[];
}

/** A dialect's migration: `summary` says what it does, `review` why it is not only additions, when it is not. */
export interface GeneratedMigration {
  up: Query[];
  down: Query[];
  summary: string;
  review?: string;
}

async function main(): Promise<void> {
  const name = process.argv.slice(2).find((argument, index, all) => !argument.startsWith('--') && all[index - 1] !== '--dialect');
  if (!name || !/^[A-Z][A-Za-z0-9]*$/.test(name)) throw new Error('usage: npm run migration:generate -- <PascalCaseName>');
  for (const dialect of dialectsAsked()) {
    const migration = await withMigratedDatabase(dialect, generateMigration);
    if (!migration) {
      console.log(`migration:generate: ${dialect}: the entities and the migrations agree; nothing to write`);
      continue;
    }
    const path = await writeMigration(
      name,
      migration,
      migrationsFolder(dialect),
      migrationsFolder(dialect === 'mysql' ? 'sqlite' : 'mysql'),
    );
    console.log(`migration:generate: ${dialect}: wrote ${path} and listed it in the folder's index.ts`);
    if (migration.review) console.warn(`migration:generate: ${dialect}: REVIEW IT BY HAND: ${migration.review}`);
  }
}

/** What the database lacks of the entities, as a migration; undefined when nothing. Changes the database it is given. */
export async function generateMigration(dataSource: DataSource): Promise<GeneratedMigration | undefined> {
  const log = await dataSource.driver.createSchemaBuilder().log();
  if (log.upQueries.length === 0) return undefined;
  const typeorm = {
    up: log.upQueries,
    down: [...log.downQueries].reverse(),
    summary: `Changes ${inWords(tablesOf(log.upQueries)) || 'the schema'}`,
  };
  const review = (reason: string) => ({ ...typeorm, review: `${reason}. ${NOT_ONLY_ADDITIONS}` });
  const additions = await additionsOnly(dataSource);
  const columns = additions.up.map(({ query }) => /^ALTER TABLE \S+ ADD COLUMN (.*)$/.exec(query)?.[1]);
  if (columns.some((column) => column !== undefined && !fitsPresentRows(column))) return review(CHANGES);
  try {
    for (const { query } of additions.up) await dataSource.query(query);
  } catch (error) {
    return review(`The database refuses to add it so (${(error as Error).message})`);
  }
  const rest = await dataSource.driver.createSchemaBuilder().log();
  return rest.upQueries.length === 0 ? additions : review(CHANGES);
}

const CHANGES = 'the entities change or remove what exists, or add a column the rows already there cannot have (NOT NULL, no default)';

const NOT_ONLY_ADDITIONS =
  "These are TypeORM's statements: a migration only adds (tables, nullable or defaulted columns, indexes) so that the " +
  'previous release keeps serving; rewrite it so, or leave the rest to a later release (docs/architecture.md, "Where to add")';

/** The statements TypeORM would run for `change`, kept in its SQL memory rather than run. */
async function written(queryRunner: QueryRunner, change: () => Promise<unknown>): Promise<string[]> {
  queryRunner.enableSqlMemory();
  try {
    await change();
    return queryRunner.getMemorySql().upQueries.map(({ query }) => query.trim());
  } finally {
    queryRunner.disableSqlMemory();
  }
}

/** A column's definition as TypeORM writes it, taken from the table it would make of that column alone. */
async function columnDefinition(queryRunner: QueryRunner, tableName: string, column: TableColumn): Promise<string> {
  const alone = column.clone();
  alone.isUnique = false;
  const [create] = await written(queryRunner, () =>
    queryRunner.createTable(new Table({ name: tableName, columns: [alone] }), false, false, false),
  );
  const definition = /^CREATE TABLE \S+ \((.*)\)( ENGINE=\w+)?$/s.exec(create)?.[1];
  if (definition === undefined) throw new Error(`migration:generate: no column definition in ${create}`);
  return definition;
}

/**
 * The tables, columns and indexes of the entities that the database lacks. Each step may run again as it is, but MySQL's
 * CREATE INDEX, which migrationSource() writes behind `indexExists()`.
 */
async function additionsOnly(dataSource: DataSource): Promise<GeneratedMigration> {
  const sqlite = dataSource.options.type === 'better-sqlite3';
  const queryRunner = dataSource.createQueryRunner();
  const name = (identifier: string) => dataSource.driver.escape(identifier);
  const up: string[] = [];
  const down: string[] = [];
  const said: string[] = [];
  const add = (step: string, undo: string, what?: string) => {
    up.push(step);
    down.unshift(undo);
    if (what) said.push(what);
  };
  for (const metadata of referencedFirst(dataSource.entityMetadatas)) {
    if (!metadata.synchronize || metadata.tableType === 'view' || metadata.tableType === 'entity-child') continue;
    const table = Table.create(metadata, dataSource.driver);
    const present = await queryRunner.getTable(table.name);
    if (!present) {
      metadata.foreignKeys.forEach((foreignKey) => table.addForeignKey(TableForeignKey.create(foreignKey, dataSource.driver)));
      const [create] = await written(queryRunner, () => queryRunner.createTable(table, false, true, false));
      add(create.replace(/^CREATE TABLE/, 'CREATE TABLE IF NOT EXISTS'), `DROP TABLE ${name(table.name)}`, `the table ${table.name}`);
    }
    for (const column of present ? table.columns.filter((column) => !present.findColumnByName(column.name)) : []) {
      add(
        `ALTER TABLE ${name(table.name)} ADD COLUMN ${await columnDefinition(queryRunner, table.name, column)}`,
        `ALTER TABLE ${name(table.name)} DROP COLUMN ${name(column.name)}`,
        `${table.name}.${column.name} (${columnInWords(dataSource, metadata.findColumnWithDatabaseName(column.name)!)})`,
      );
    }
    // A new table's indexes: MySQL's CREATE TABLE above makes them, SQLite's does not.
    for (const index of table.indices.filter((index) => (present ? !present.indices.some(({ name }) => name === index.name) : sqlite))) {
      const [create] = await written(queryRunner, () => queryRunner.createIndex(table.clone(), index));
      add(
        create.replace(/^CREATE (UNIQUE )?INDEX "/, 'CREATE $1INDEX IF NOT EXISTS "'),
        `DROP INDEX ${name(index.name ?? '')}${sqlite ? '' : ` ON ${name(table.name)}`}`,
        present && `the index ${index.name} on ${table.name} (${index.columnNames.join(', ')})`,
      );
    }
  }
  return { up: up.map((query) => ({ query })), down: down.map((query) => ({ query })), summary: `Adds ${inWords(said)}` };
}

/** A column as its entity declares it: `nullable varchar(500)`, `varchar(7), default 'monitor'`. */
function columnInWords(dataSource: DataSource, column: EntityMetadata['columns'][number]): string {
  const type = typeof column.type === 'string' ? column.type : dataSource.driver.normalizeType(column);
  const size = column.length ? [column.length] : [column.precision, column.scale].filter((part) => part !== undefined && part !== null);
  const declared = `${column.isNullable ? 'nullable ' : ''}${type}${size.length > 0 ? `(${size.join(',')})` : ''}`;
  const { default: value } = column;
  if (value === undefined || value === null) return declared;
  const written = typeof value === 'function' ? (value as () => unknown)() : typeof value === 'string' ? `'${value}'` : value;
  return `${declared}, default ${String(written)}`;
}

/** The tables TypeORM's statements name, its SQLite copies aside. */
function tablesOf(queries: Query[]): string[] {
  const named = queries.flatMap(({ query }) => [...query.matchAll(/\b(?:TABLE|INTO|ON) [`"](\w+)/g)].map(([, table]) => table));
  return [...new Set(named.filter((table) => !table.startsWith('temporary_')))];
}

/** `a`, `a and b`, `a, b and c`. */
function inWords(parts: string[]): string {
  return parts.length < 2 ? parts.join('') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

/** The entities, each after those it references: MySQL makes a foreign key only to a table that exists. */
function referencedFirst(metadatas: EntityMetadata[]): EntityMetadata[] {
  const ordered = new Set<EntityMetadata>();
  const seen = new Set<EntityMetadata>();
  const visit = (metadata: EntityMetadata): void => {
    if (seen.has(metadata)) return;
    seen.add(metadata);
    metadata.foreignKeys.forEach(({ referencedEntityMetadata }) => visit(referencedEntityMetadata));
    ordered.add(metadata);
  };
  metadatas.forEach(visit);
  return [...ordered];
}

/** A column's definition that the rows already there can have: nullable, or with a default. */
function fitsPresentRows(definition: string): boolean {
  return !definition.includes('NOT NULL') || definition.includes(' DEFAULT ');
}

/**
 * Writes the migration in `folder` and the folder's index.ts; the path it wrote. Its timestamp is that of the other
 * dialect's migration of the name, so the two never differ; else now, or one past the latest migration if that is
 * later (one of them is dated ahead): TypeORM runs migrations in timestamp order, and the new one must run last.
 */
export async function writeMigration(
  name: string,
  migration: GeneratedMigration,
  folder: string,
  otherFolder: string,
  format = formatted,
): Promise<string> {
  const present = migrationsIn(folder).find((each) => each.name === name);
  if (present) throw new Error(`${basename(folder)}/${present.file}.ts exists and the entities still differ: name this change otherwise`);
  const others = migrationsIn(otherFolder);
  const timestamp =
    others.find((each) => each.name === name)?.timestamp ??
    Math.max(Date.now(), ...[...migrationsIn(folder), ...others].map((each) => each.timestamp + 1));
  const path = join(folder, `${timestamp}-${name}.ts`);
  writeFileSync(path, await format(path, migrationSource(`${name}${timestamp}`, migration)));
  await writeMigrationIndex(folder, format);
  return path;
}

/** The migration's file: a column through `addColumn()` of schema-probes.ts, a MySQL index made unless it exists. */
export function migrationSource(className: string, { up, down, summary, review }: GeneratedMigration): string {
  const literal = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  const addColumn = (query: string) => /^ALTER TABLE [`"]([^`"]+)[`"] ADD COLUMN [`"]([^`"]+)[`"] (.+)$/.exec(query)?.slice(1);
  const mysqlIndex = (query: string) => /^CREATE (?:\w+ )?INDEX `([^`]+)` ON `([^`]+)`/.exec(query)?.slice(1).reverse();
  const statements = (queries: Query[]) =>
    queries
      .map(({ query, parameters }) => {
        const column = addColumn(query);
        if (column) return `    await addColumn(queryRunner, ${column.map(literal).join(', ')});`;
        const run = `await queryRunner.query(${literal(query)}${parameters?.length ? `, ${JSON.stringify(parameters)}` : ''});`;
        const index = mysqlIndex(query);
        if (index) return `    if (!(await indexExists(queryRunner, ${index.map(literal).join(', ')}))) {\n      ${run}\n    }`;
        return `    ${run}`;
      })
      .join('\n');
  const probes = [up.some(({ query }) => addColumn(query)) && 'addColumn', up.some(({ query }) => mysqlIndex(query)) && 'indexExists'];
  const used = probes.filter(Boolean).join(', ');
  return `import { MigrationInterface, QueryRunner } from 'typeorm';
${used ? `import { ${used} } from './schema-probes';\n` : ''}
/** ${summary}. Generated from the entities by npm run migration:generate.${review ? ` REVIEW: ${review}.` : ''} */
export class ${className} implements MigrationInterface {
  name = '${className}';

  async up(queryRunner: QueryRunner): Promise<void> {
${statements(up)}
  }

  async down(queryRunner: QueryRunner): Promise<void> {
${statements(down)}
  }
}
`;
}

if (require.main === module) runScript(main);
