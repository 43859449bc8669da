import { DataSource, DataSourceOptions, EntityMetadata } from 'typeorm';

// What the service needs and TypeORM's public API does not give: each reaches past it, for the reason written above it.
// typeorm-gaps.spec.ts fails when a TypeORM upgrade changes what one relies on (or makes it needless).

// TypeORM's SQLite driver refuses CHAR (which SQLite takes) and MEDIUMTEXT, and has no option to accept a type.
export function acceptMysqlTypesOnSqlite(dataSource: DataSource): void {
  dataSource.driver.supportedDataTypes.push('char', 'mediumtext');
  dataSource.driver.withLengthColumnTypes.push('char');
}

// A decorator's options are the class's, not the DataSource's: TypeORM has no column option per dialect.
export function readAsSqliteDeclaresIt(dataSource: DataSource): void {
  dataSource.entityMetadatas.forEach(asSqliteDeclaresIt);
}

// Metadata exists only once initialize() has built it: every SQLite DataSource (the service's, the CLI's through
// ormconfig.ts, the scripts') reads the tables as the migrations spelled them, so TypeORM's schema builder finds no change.
export class SqliteDataSource extends DataSource {
  constructor(options: DataSourceOptions) {
    super(options);
    acceptMysqlTypesOnSqlite(this);
  }

  override async initialize(): Promise<this> {
    await super.initialize();
    readAsSqliteDeclaresIt(this);
    return this;
  }
}

// TypeORM builds the metadata only in initialize(), which connects first; the unit specs need MySQL's without a server.
export async function metadataWithoutConnecting(dataSource: DataSource): Promise<DataSource> {
  await (dataSource as unknown as { buildMetadatas(): Promise<void> }).buildMetadatas();
  return dataSource;
}

// MySQL cannot make a partial index.
const SQLITE_PARTIAL_INDEXES: Record<string, { columns: string[]; where: string }> = {
  IDX_audit_event_unpublished: { columns: ['id'], where: 'unpublished = 1' },
};

// As the SQLite migrations spell the tables the entities state for MySQL.
function asSqliteDeclaresIt(entity: EntityMetadata): void {
  for (const column of entity.columns) {
    if (column.type === 'mediumtext') column.type = 'text';
    if (column.type === 'datetime') column.precision = undefined;
    column.charset = undefined;
    column.collation = undefined;
    if (column.isGenerated && column.type === 'bigint') column.type = 'integer';
  }
  for (const foreignKey of entity.foreignKeys) {
    if (foreignKey.onUpdate === 'RESTRICT') foreignKey.onUpdate = 'NO ACTION';
  }
  for (const index of entity.indices) {
    const partial = index.name === undefined ? undefined : SQLITE_PARTIAL_INDEXES[index.name];
    if (!partial) continue;
    index.columns = partial.columns.map((name) => entity.findColumnWithDatabaseName(name)!);
    index.where = partial.where;
  }
}
